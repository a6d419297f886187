import type { CurrentUser } from "@kpi-id/contracts";
import { Code2, LayoutGrid, LogOut, ShieldCheck, UserRoundCog } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { linkTitle, useAppLinkCheck, useLogout } from "@/features/auth/index.ts";
import { pageContainer } from "@/lib/layout.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";
import { AppsGrid } from "./apps-grid.tsx";
import { MyDataLink } from "./my-data-link.tsx";
import { useAppIdRedirect } from "./use-app-id-redirect.ts";

/** The signed-in person's applications, and the ways to their account, the developers' page and the console. */
export function AppsScreen({ user }: { user: CurrentUser }) {
  const { t } = useTranslation("apps");
  const outcome = useAppIdRedirect(user.applications);
  const logout = useLogout();
  const language = useLanguage();
  if (outcome.kind === "redirecting") {
    return <PageSpinner label={t("apps:redirecting", { title: outcome.application.title })} />;
  }
  return (
    <div className={cn(pageContainer, "flex flex-col gap-6 py-8 sm:py-12")}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
            {t("apps:welcome", { name: user.fullName })}
          </h1>
          <p className="text-muted-foreground">
            <Trans t={t} i18nKey="apps:description" components={{ dataLink: <MyDataLink data={user.data} /> }} />
          </p>
        </div>
        <div className="flex flex-wrap gap-2 self-start sm:shrink-0">
          <Button variant="outline" asChild>
            <Link to={localizePath(language, "/account")} data-testid="account-link">
              <UserRoundCog aria-hidden />
              {t("apps:account")}
            </Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to={localizePath(language, "/developers")} data-testid="apps-developers-link">
              <Code2 aria-hidden />
              {t("apps:developers")}
            </Link>
          </Button>
          {user.console ? (
            <Button variant="outline" asChild>
              <Link to={localizePath(language, "/admin")} data-testid="console-link">
                <ShieldCheck aria-hidden />
                {t("apps:console")}
              </Link>
            </Button>
          ) : null}
          <Button
            variant="outline"
            onClick={() => logout.mutate()}
            loading={logout.isPending}
            icon={<LogOut aria-hidden />}
          >
            {t("apps:logout")}
          </Button>
        </div>
      </div>
      {outcome.kind === "unknown" ? <NotOnTheList appId={outcome.appId} /> : null}
      {outcome.kind === "inTesting" ? <InTestingAlert appId={outcome.appId} /> : null}
      {outcome.kind === "unregisteredRedirectUri" ? (
        <Alert variant="destructive" title={t("apps:redirectUriError.title")} testId="redirect-uri-error">
          {t("apps:redirectUriError.description", { title: outcome.application.title })}
          {outcome.tried ? (
            <span className="mt-1 block" data-testid="redirect-uri-tried">
              {t("apps:redirectUriError.tried")} <code className="break-all">{outcome.tried}</code>
            </span>
          ) : null}
        </Alert>
      ) : null}
      {user.applications.length === 0 ? (
        <Alert title={t("apps:noApps.title")} testId="no-apps-error">
          <Trans
            t={t}
            i18nKey="apps:noApps.description"
            components={{ help: <Link className="underline" to={localizePath(language, "/faq")} /> }}
          />
        </Alert>
      ) : (
        <section aria-labelledby="apps-heading" className="space-y-3">
          <h2
            id="apps-heading"
            className="flex items-center gap-2 text-sm font-semibold tracking-wider text-muted-foreground uppercase"
          >
            <LayoutGrid className="size-4" aria-hidden />
            {t("apps:listTitle")}
          </h2>
          <AppsGrid applications={user.applications} newTabHint={t("apps:newTab")} />
        </section>
      )}
    </div>
  );
}

/**
 * An application still being tested by its developers refused the person (issue 60): the page names it, as the
 * OpenID Connect and device pages do, rather than a bare refusal.
 */
function InTestingAlert({ appId }: { appId: string }) {
  const { t } = useTranslation("apps");
  const language = useLanguage();
  const check = useAppLinkCheck(appId);
  const title = check?.known ? linkTitle(check, language) : "";
  return (
    <Alert
      variant="destructive"
      title={title ? t("apps:inTesting.titleNamed", { application: title }) : t("apps:inTesting.title")}
      testId="in-testing-error"
    >
      {t("apps:inTesting.description")}
    </Alert>
  );
}

/**
 * A link to an application not on the person's list: one still being tested (the ticket path after sign-in, issue
 * 60) gets the testing notice naming it, like OpenID Connect's page; any other the redirect error.
 */
function NotOnTheList({ appId }: { appId: string }) {
  const { t } = useTranslation("apps");
  const check = useAppLinkCheck(appId);
  if (check?.known && check.stage === "testing") return <InTestingAlert appId={appId} />;
  return (
    <Alert variant="destructive" title={t("apps:redirectError.title")} testId="redirect-error">
      {t("apps:redirectError.description")}
    </Alert>
  );
}
