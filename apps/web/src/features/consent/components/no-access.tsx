import type { ConsentDetails, ConsentOutcome } from "@kpi-id/contracts";
import type { UseMutationResult } from "@tanstack/react-query";
import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizePath } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * An application's sign-in reached a person KPI ID gives no access to it: say so, who can give it, and
 * let them go back (the application then learns `access_denied`, "no access", not "you declined"). An application
 * still in testing (developers' page) says so instead: only its owners and testers may sign in yet.
 */
export function NoAccess({
  details,
  answer,
}: {
  details: ConsentDetails;
  answer: UseMutationResult<ConsentOutcome, Error, boolean>;
}) {
  const { t } = useTranslation("consent");
  const language = useLanguage();
  const supportEmail = useSettings().data?.supportEmail;
  const describeError = useErrorMessage();
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14" data-testid="no-access">
      <div className="space-y-2">
        <ShieldX className="size-10 text-destructive" aria-hidden />
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
          {t(details.inTesting ? "inTesting.title" : "noAccess.title", { application: details.application.title })}
        </h1>
      </div>
      <div className="space-y-4 rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <p className="text-foreground">{t("signedInAs", { name: details.person.name })}</p>
        <p className="text-foreground" data-testid={details.inTesting ? "consent-in-testing" : undefined}>
          {t(details.inTesting ? "inTesting.description" : "noAccess.description")}
        </p>
        <p className="text-foreground">
          {t("noAccess.whoToAsk")}{" "}
          {/* Without the settings there is no address: the help page still says where to turn. */}
          {supportEmail ? (
            <>
              <a className="font-medium text-primary underline" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
              {" · "}
            </>
          ) : null}
          <Link className="font-medium text-primary underline" to={localizePath(language, "/faq")}>
            {t("noAccess.help")}
          </Link>
        </p>
        {answer.isError ? (
          <Alert variant="destructive" title={t("error.title")} testId="consent-answer-error">
            {describeError(answer.error, "consent:error.generic").message}
          </Alert>
        ) : null}
        <div className="flex flex-col gap-3 pt-2 sm:flex-row">
          <Button
            className="sm:flex-1"
            variant="outline"
            loading={answer.isPending}
            disabled={answer.isPending || answer.isSuccess}
            onClick={() => answer.mutate(false)}
          >
            {t("noAccess.back")}
          </Button>
          <Button asChild className="sm:flex-1">
            <Link to={localizePath(language, "/apps")}>{t("noAccess.myApps")}</Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
