import type { AppLinkCheck } from "@kpi-id/contracts";
import { AppWindow, ShieldCheck, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "@/lib/use-language.ts";

/** The application's name in the page's language (the Ukrainian one when there is no English one). */
export function linkTitle(check: Pick<AppLinkCheck, "title" | "titleEn">, language: string): string {
  return (language === "en" ? check.titleEn || check.title : check.title) ?? "";
}

/** The application as the sign-in page names it: from a ticket link's check, or from the sign-in waiting. */
export type NamedApplication = Pick<AppLinkCheck, "title" | "titleEn" | "stage">;

/**
 * Whom the person is signing in to (issue 60), on the sign-in page of a ticket link that names an application, or
 * of an OpenID Connect, SAML or CAS sign-in waiting in the browser: its name and whether the university reviewed
 * it or it is still being tested by its developers.
 */
export function SigningInTo({ application }: { application: NamedApplication | undefined }) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  if (!application?.title) return null;
  const reviewed = application.stage === "reviewed";
  const Mark = reviewed ? ShieldCheck : TriangleAlert;
  return (
    <div className="flex items-start gap-3 rounded-xl border border-border bg-white p-4" data-testid="signing-in-to">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <AppWindow className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 space-y-1">
        <p className="text-sm text-muted-foreground">{t("login.signingInTo")}</p>
        <p className="break-words font-semibold text-foreground" data-testid="signing-in-to-title">
          {linkTitle(application, language)}
        </p>
        <p
          className={`flex items-center gap-1 text-sm ${reviewed ? "text-emerald-800" : "text-amber-900"}`}
          data-testid="signing-in-to-stage"
          data-stage={application.stage}
        >
          <Mark className="size-4 shrink-0" aria-hidden />
          {t(reviewed ? "login.stage.reviewed" : "login.stage.testing")}
        </p>
      </div>
    </div>
  );
}
