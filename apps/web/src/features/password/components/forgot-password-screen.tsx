import { BANKID_ERROR_PARAM, isBankIdErrorReason } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { RefusalAlert } from "@/components/refusal-alert.tsx";
import { SettingsUnavailable } from "@/components/settings-unavailable.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useReasonParam } from "@/lib/use-reason-param.ts";
import { BankIdRecovery } from "./bankid-recovery.tsx";
import { DiiaRecovery } from "./diia-recovery.tsx";
import { EmailRecoveryForm } from "./email-recovery-form.tsx";
import { RecoveryChoice, type RecoveryRoute } from "./recovery-choice.tsx";

/** `?via=diia`, `?via=bankid` or `?via=email` picks the way back in; without it the page offers the ones available. */
function useChosenRoute(offered: RecoveryRoute[]): RecoveryRoute | undefined {
  const [params] = useSearchParams();
  const via = params.get("via");
  return offered.find((route) => route === via);
}

/** "Forgot password?": prove it is you with Diia, BankID or a link by e-mail, then set a new password. */
export function ForgotPasswordScreen() {
  const { t } = useTranslation(["password", "auth"]);
  const language = useLanguage();
  const navigate = useNavigate();
  const settings = useSettings();
  const offered: RecoveryRoute[] = [];
  if (settings.data?.diiaEnabled) offered.push("diia");
  if (settings.data?.bankIdEnabled) offered.push("bankid");
  if (settings.data?.emailRecoveryEnabled) offered.push("email");
  const chosen = useChosenRoute(offered);
  const [bankIdError] = useReasonParam(BANKID_ERROR_PARAM, isBankIdErrorReason, "failed");
  const page = localizePath(language, "/forgot-password");
  const toReset = (token: string) =>
    navigate({ pathname: localizePath(language, "/reset-password"), hash: `token=${token}` }, { replace: true });
  return (
    <ContentPage title={t("password:forgot.title")} width="narrow">
      <p className="text-muted-foreground">{t("password:forgot.description")}</p>
      {settings.isPending ? <Skeleton className="h-32 w-full" /> : null}
      {settings.isError ? <SettingsUnavailable what="signIn" /> : null}
      {bankIdError ? (
        <RefusalAlert prefix={`password:forgot.bankIdError.${bankIdError}`} testId="bankid-error" />
      ) : null}
      {chosen === "diia" ? <DiiaRecovery onProved={toReset} /> : null}
      {chosen === "bankid" ? <BankIdRecovery /> : null}
      {chosen === "email" ? <EmailRecoveryForm /> : null}
      {chosen === undefined && offered.length > 0 ? (
        <RecoveryChoice routes={offered} hrefOf={(route) => `${page}?via=${route}`} />
      ) : null}
      <Link
        to={localizePath(language, "/")}
        className="self-start text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        {t("password:forgot.backToSignIn")}
      </Link>
    </ContentPage>
  );
}
