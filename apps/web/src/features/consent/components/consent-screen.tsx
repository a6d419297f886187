import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useAnswerConsent } from "../api/answer-consent.ts";
import { useInteraction } from "../api/get-interaction.ts";

// The scopes an application may ask for; anything else is shown by its name.
const knownScopes = new Set(["profile", "email", "kpi", "offline_access", "tax_id"]);

function RequestedData({ scopes }: { scopes: string[] }) {
  const { t } = useTranslation("consent");
  const listed = scopes.length ? scopes : ["openid"];
  return (
    <ul className="space-y-2" data-testid="consent-scopes">
      {listed.map((scope) => (
        <li key={scope} className="flex items-start gap-2 text-foreground">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>{knownScopes.has(scope) || scope === "openid" ? t(`scopes.${scope}`) : scope}</span>
        </li>
      ))}
    </ul>
  );
}

/** An application that is not first-party asks the person before it learns who they are. */
export function ConsentScreen({ uid }: { uid: string }) {
  const { t } = useTranslation("consent");
  const interaction = useInteraction(uid);
  const answer = useAnswerConsent(uid);
  const describeError = useErrorMessage();

  if (interaction.isPending) return <PageSpinner label={t("common:loading")} />;
  if (interaction.isError) {
    const { code, message } = describeError(interaction.error, "consent:error.generic");
    return (
      <div className="mx-auto w-full max-w-[450px] px-4 py-8 sm:py-14">
        <Alert variant="destructive" title={t("error.title")} testId="consent-error">
          {code === "oidc.interaction_not_found" ? t("error.expired") : message}
        </Alert>
      </div>
    );
  }
  const { application, scopes, person } = interaction.data;
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
          {t("title", { application: application.title })}
        </h1>
        {application.description ? <p className="text-muted-foreground">{application.description}</p> : null}
      </div>
      <div className="space-y-4 rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <p className="text-foreground">{t("signedInAs", { name: person.name })}</p>
        <p className="font-medium text-foreground">{t("requests", { application: application.title })}</p>
        <RequestedData scopes={scopes} />
        {answer.isError ? (
          <Alert variant="destructive" title={t("error.title")} testId="consent-answer-error">
            {describeError(answer.error, "consent:error.generic").message}
          </Alert>
        ) : null}
        <div className="flex flex-col gap-3 pt-2 sm:flex-row-reverse">
          <Button
            className="sm:flex-1"
            loading={answer.isPending && answer.variables === true}
            disabled={answer.isPending || answer.isSuccess}
            onClick={() => answer.mutate(true)}
          >
            {t("allow")}
          </Button>
          <Button
            className="sm:flex-1"
            variant="outline"
            loading={answer.isPending && answer.variables === false}
            disabled={answer.isPending || answer.isSuccess}
            onClick={() => answer.mutate(false)}
          >
            {t("deny")}
          </Button>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{t("note")}</p>
    </div>
  );
}
