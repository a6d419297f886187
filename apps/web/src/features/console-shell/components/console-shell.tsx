import type { AdminMe } from "@kpi-id/contracts";
import { ShieldCheck } from "lucide-react";
import { createContext, type ReactNode, useContext } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, NavLink, useLocation } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { pageContainer } from "@/lib/layout.ts";
import { localizePath, RETURN_TO_PARAM } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";
import { consoleKey, useOperator, useRoleRefusalsForgotten } from "../api/console-api.ts";
import { useServiceStatus } from "../api/service-status.ts";
import { Held, useAnswersFirst } from "./answers-first.tsx";
import { CertificateNotice } from "./certificate-notice.tsx";
import { RevocationNotice } from "./revocation-notice.tsx";

const OperatorContext = createContext<AdminMe | undefined>(undefined);

/** The operator of the console page (inside ConsoleShell). */
export function useConsoleOperator(): AdminMe {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error("useConsoleOperator is used outside the console");
  return operator;
}

export function useCan(permission: string): boolean {
  return useConsoleOperator().permissions.includes(permission);
}

function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const { pathname } = useLocation();
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === "auth.not_authenticated") {
    const back = new URLSearchParams({ [RETURN_TO_PARAM]: pathname });
    return <Navigate to={`${localizePath(language, "/")}?${back}`} replace />;
  }
  if (code === "auth.step_up_required") {
    return (
      <Alert title={t("admin:stepUp.title")} testId="console-step-up">
        <p>{t("admin:stepUp.description")}</p>
        <p className="mt-2 flex flex-wrap gap-4">
          {/* reauth: the Diia page signs a person in again even when signed in; returnTo comes back here after. */}
          <Link
            className="font-medium text-primary underline"
            to={`${localizePath(language, "/diia")}?${new URLSearchParams({ reauth: "1", [RETURN_TO_PARAM]: pathname })}`}
            data-testid="console-step-up-diia"
          >
            {t("admin:stepUp.diia")}
          </Link>
          <Link className="font-medium text-primary underline" to={localizePath(language, "/account")}>
            {t("admin:stepUp.account")}
          </Link>
        </p>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" title={t("admin:forbidden.title")} testId="console-forbidden">
      {t("admin:forbidden.description")}
    </Alert>
  );
}

function ConsoleNav() {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const operator = useConsoleOperator();
  const { t: tRecords } = useTranslation("admin-records");
  const { t: tService } = useTranslation("admin-service");
  const { t: tReviews } = useTranslation("admin-reviews");
  const canImport = operator.permissions.includes("people.import");
  const canAudit = operator.permissions.includes("audit.view");
  const canKeys = operator.permissions.includes("keys.manage");
  const canService = operator.permissions.includes("service.view");
  const { pathname } = useLocation();
  // A person's screen (/admin/people/{id}) belongs to People, though its path is not /admin itself.
  const onPerson = /\/admin\/people\//.test(pathname);
  const links = [
    { to: "/admin", label: t("admin:nav.people"), end: true, show: true },
    {
      to: "/admin/applications",
      label: t("admin:nav.applications"),
      end: false,
      // A unit admin sees their units' applications (issue 79); a helpdesk role, none.
      show: operator.permissions.includes("apps.view"),
    },
    {
      to: "/admin/reviews",
      label: tReviews("admin-reviews:nav.reviews"),
      end: false,
      show: operator.permissions.includes("apps.view"),
    },
    { to: "/admin/import", label: tRecords("admin-records:nav.import"), end: false, show: canImport },
    { to: "/admin/audit", label: tRecords("admin-records:nav.audit"), end: false, show: canAudit },
    { to: "/admin/keys", label: tService("admin-service:nav.keys"), end: false, show: canKeys },
    { to: "/admin/service", label: tService("admin-service:nav.service"), end: false, show: canService },
    {
      to: "/admin/ldap",
      label: tService("admin-service:nav.ldap"),
      end: false,
      show: operator.permissions.includes("ldap.manage"),
    },
    {
      to: "/admin/guests",
      label: tRecords("admin-records:nav.guests"),
      end: false,
      show: operator.permissions.includes("people.view"),
    },
  ];
  return (
    <nav aria-label={t("admin:nav.label")} className="flex flex-wrap gap-1 border-b border-border pb-2">
      {links
        .filter((link) => link.show)
        .map((link) => (
          <NavLink
            key={link.to}
            to={localizePath(language, link.to)}
            end={link.end}
            className={({ isActive }) =>
              cn(
                "rounded-md px-3 py-2 text-sm font-medium",
                isActive || (onPerson && link.to === "/admin")
                  ? "bg-primary/10 text-primary"
                  : "text-foreground hover:bg-muted",
              )
            }
          >
            {link.label}
          </NavLink>
        ))}
    </nav>
  );
}

/**
 * The console's first screen (/admin) also warns of certificates near their end and stale CRLs, to those who may see
 * the service. The screen waits for that answer (or its failure), up to `answerWait`: a notice arriving after the
 * list pushed it down under a tap, and the tap meant for a person landed on the notice (at 390 px it is some 300 px
 * tall). Notices that come after the list has been shown go below it.
 */
function HomeNotices({ children }: { children: ReactNode }) {
  const { t } = useTranslation("admin");
  const { pathname } = useLocation();
  const canService = useCan("service.view");
  const watching = canService && /^(\/[a-z]{2})?\/admin\/?$/.test(pathname);
  const service = useServiceStatus(watching);
  const { waiting, late: below } = useAnswersFirst("home", watching, service.isPending);
  if (!watching) return children;
  const notices = service.data ? (
    <>
      <CertificateNotice certificates={service.data.certificates} />
      <RevocationNotice lists={service.data.revocationLists} />
    </>
  ) : null;
  return (
    <>
      {waiting ? <PageSpinner label={t("admin:loading")} /> : null}
      {below ? null : notices}
      <Held waiting={waiting}>{children}</Held>
      {below ? notices : null}
    </>
  );
}

/** The operator's roles as the heading names them: "admin", "unit admin · FICT" for a role held in a unit. */
function useRoleWords(operator: AdminMe | undefined): string[] | undefined {
  const { t } = useTranslation("admin");
  if (!operator) return undefined;
  return [
    ...operator.roles.map((role) => t(`admin:roles.${role}`)),
    ...(operator.unitRoles ?? []).map((held) =>
      t("admin:units.heldRole", { role: t(`admin:roles.${held.role}`), unit: held.unit.code }),
    ),
  ];
}

/** The console's frame: who may enter (a role and a strong sign-in), its heading and its sections. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation("admin");
  const operator = useOperator();
  const roles = useRoleWords(operator.data);
  // Promoted (or demoted) while the console is open: what was refused for the old roles is asked again.
  useRoleRefusalsForgotten(
    operator.data && [
      ...operator.data.roles,
      ...(operator.data.unitRoles ?? []).map((held) => `${held.role}:${held.unit.id}`),
    ],
    consoleKey,
  );
  return (
    <div className={cn(pageContainer, "flex flex-col gap-4 py-6 sm:py-10")}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight text-foreground">
          <ShieldCheck className="size-6 text-primary" aria-hidden />
          {t("admin:title")}
        </h1>
        {operator.data ? (
          <p className="text-sm text-muted-foreground" data-testid="console-operator">
            {t("admin:signedInAs", { name: operator.data.fullName, roles: roles?.join(", ") })}
          </p>
        ) : null}
      </div>
      {operator.isPending ? <PageSpinner label={t("admin:loading")} /> : null}
      {operator.isError ? <Refusal error={operator.error} /> : null}
      {operator.data ? (
        <OperatorContext.Provider value={operator.data}>
          <ConsoleNav />
          <HomeNotices>{children}</HomeNotices>
        </OperatorContext.Provider>
      ) : null}
    </div>
  );
}
