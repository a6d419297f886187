import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { acceptVisitor, useWelcome } from "../api/institutions.ts";

/**
 * A researcher's first sign-in: what their institution released and what KPI ID will keep, for them to agree to
 * before an account is made (identity is kept only with consent).
 */
export function InstitutionWelcome({ request }: { request: string }) {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const errorMessage = useErrorMessage();
  const welcome = useWelcome(request);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  if (welcome.isError)
    return (
      <Alert variant="destructive" title={t("auth:institution.refusedTitle")} testId="institution-welcome-error">
        {errorMessage(welcome.error, "auth:institution.startFailed").message}
      </Alert>
    );
  if (!welcome.data) return <p className="text-muted-foreground">{t("auth:institution.loading")}</p>;
  const { institution, name, email, affiliations, multiFactor } = welcome.data;

  async function accept() {
    setBusy(true);
    try {
      window.location.assign((await acceptVisitor(request)).next);
    } catch (error) {
      setBusy(false);
      setFailure(errorMessage(error, "auth:institution.startFailed").message);
    }
  }

  const rows: [string, string][] = [
    [t("auth:institution.welcome.name"), name],
    [t("auth:institution.welcome.email"), email ?? t("auth:institution.welcome.notReleased")],
    [t("auth:institution.welcome.affiliations"), affiliations.join(", ") || t("auth:institution.welcome.notReleased")],
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="institution-welcome">
      <p>{t("auth:institution.welcome.intro", { institution: language === "uk" ? institution.uk : institution.en })}</p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 rounded-lg border border-border bg-white p-4 sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="break-words font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted-foreground">
        {t(multiFactor ? "auth:institution.welcome.multiFactor" : "auth:institution.welcome.oneFactor")}
      </p>
      {failure ? (
        <Alert variant="destructive" title={t("auth:institution.refusedTitle")} testId="institution-accept-error">
          {failure}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button onClick={() => void accept()} disabled={busy} data-testid="institution-accept">
          {t("auth:institution.welcome.accept")}
        </Button>
        <Button asChild variant="outline">
          <Link to={localizePath(language, "/")}>{t("auth:institution.welcome.decline")}</Link>
        </Button>
      </div>
    </div>
  );
}
