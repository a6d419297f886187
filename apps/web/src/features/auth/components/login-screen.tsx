import {
  appLinkParams,
  BANKID_ERROR_PARAM,
  GOOGLE_ERROR_PARAM,
  isBankIdErrorReason,
  isGoogleErrorReason,
} from "@kpi-id/contracts";
import { useIsMutating } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { RefusalAlert } from "@/components/refusal-alert.tsx";
import { SettingsUnavailable } from "@/components/settings-unavailable.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { TextSeparator } from "@/components/ui/separator.tsx";
import { BankIdEntry } from "@/features/bankid/index.ts";
import { InstitutionEntry } from "@/features/institution/index.ts";
import { localizedHref, localizePath, RETURN_TO_PARAM } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useReasonParam } from "@/lib/use-reason-param.ts";
import { useAppLink } from "../api/check-app-link.ts";
import { signInMutationKey } from "../api/password-login.ts";
import { useSignInContinuing } from "../api/sign-in-continuing.ts";
import { useFinishSignIn } from "../api/use-finish-sign-in.ts";
import { DiiaEntry } from "./diia-entry.tsx";
import { GoogleButton } from "./google-button.tsx";
import { LoginForm } from "./login-form.tsx";
import { SigningInTo } from "./signing-in-to.tsx";

/**
 * One sign-in at a time: a password sign-in in the page, or Google's or BankID's full-page flow once its
 * button is pressed (until the page comes back from the browser's cache, e.g. after Back).
 */
function useSignInRunning(): [boolean, () => void] {
  const passwordRunning = useIsMutating({ mutationKey: signInMutationKey }) > 0;
  const [elsewhereStarted, setElsewhereStarted] = useState(false);
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => event.persisted && setElsewhereStarted(false);
    window.addEventListener("pageshow", reset);
    return () => window.removeEventListener("pageshow", reset);
  }, []);
  return [passwordRunning || elsewhereStarted, () => setElsewhereStarted(true)];
}

/** The step-up notice names the strong ways this deployment offers besides a passkey and a second factor. */
function stepUpKey(diiaEnabled: boolean, bankIdEnabled: boolean): string {
  if (diiaEnabled && bankIdEnabled) return "auth:login.mfaRequired.descriptionWithDiiaAndBankId";
  if (bankIdEnabled) return "auth:login.mfaRequired.descriptionWithBankId";
  return diiaEnabled ? "auth:login.mfaRequired.descriptionWithDiia" : "auth:login.mfaRequired.description";
}

/** The sign-in page: the password form, then the other ways in this deployment offers. */
export function LoginScreen() {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const { search } = useLocation();
  const settings = useSettings();
  const [googleError, clearGoogleError] = useReasonParam(GOOGLE_ERROR_PARAM, isGoogleErrorReason, "failed");
  const [bankIdError, clearBankIdError] = useReasonParam(BANKID_ERROR_PARAM, isBankIdErrorReason, "failed");
  const finishSignIn = useFinishSignIn(search);
  const [signInRunning, startElsewhere] = useSignInRunning();
  const { problem: appLinkProblem, check: appLink } = useAppLink(search);
  // A ticket link names its application in the address; OpenID Connect, SAML and CAS keep it on the server.
  const linkNamesApplication = new URLSearchParams(search).has("appId");
  const continuing = useSignInContinuing(!linkNamesApplication);
  const googleEnabled = settings.data?.googleEnabled ?? false;
  const diiaEnabled = settings.data?.diiaEnabled ?? false;
  const bankIdEnabled = settings.data?.bankIdEnabled ?? false;
  const institutionsEnabled = settings.data?.institutionsEnabled ?? false;
  const clearRefusals = () => {
    clearGoogleError();
    clearBankIdError();
  };
  // The server sends a one-factor session here (mfa=1) when an application or its acr_values ask for more.
  const stepUp = new URLSearchParams(search).get("mfa") === "1";
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{t("auth:login.title")}</h1>
        <p className="text-muted-foreground">{t("auth:login.description")}</p>
      </div>
      <SigningInTo application={linkNamesApplication ? (appLink?.known ? appLink : undefined) : continuing} />
      {stepUp ? (
        <Alert title={t("auth:login.mfaRequired.title")} testId="mfa-required">
          {t(stepUpKey(diiaEnabled, bankIdEnabled))}
        </Alert>
      ) : null}
      {appLinkProblem ? (
        <Alert variant="destructive" title={t(`auth:login.appLink.${appLinkProblem}.title`)} testId="app-link-error">
          {t(`auth:login.appLink.${appLinkProblem}.description`)}
        </Alert>
      ) : null}
      {googleError ? (
        <RefusalAlert prefix={`auth:login.googleError.refused.${googleError}`} testId="google-error" />
      ) : null}
      {bankIdError ? (
        <RefusalAlert prefix={`auth:login.bankIdError.refused.${bankIdError}`} testId="bankid-error" />
      ) : null}
      <div className="rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <LoginForm onSignedIn={finishSignIn} onAttempt={clearRefusals} disabled={signInRunning} />
        {diiaEnabled || bankIdEnabled || settings.data?.emailRecoveryEnabled ? (
          <Link
            to={localizePath(language, "/forgot-password")}
            className="mt-4 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {t("auth:login.forgotPassword")}
          </Link>
        ) : null}
      </div>
      {settings.isError ? <SettingsUnavailable what="signIn" /> : null}
      {diiaEnabled || googleEnabled || bankIdEnabled || institutionsEnabled ? (
        <TextSeparator text={t("auth:login.or")} />
      ) : null}
      {diiaEnabled ? (
        <DiiaEntry
          href={localizedHref(language, "/diia", search, [...appLinkParams, RETURN_TO_PARAM])}
          title={t("auth:login.diia.title")}
          description={t("auth:login.diia.description")}
          disabled={signInRunning}
        />
      ) : null}
      {bankIdEnabled ? (
        <BankIdEntry
          label={t("auth:login.bankid")}
          search={search}
          bankPicker={settings.data?.bankIdBankPicker ?? false}
          disabled={signInRunning}
          onStart={startElsewhere}
        />
      ) : null}
      {googleEnabled ? (
        <GoogleButton
          label={t("auth:login.google")}
          search={search}
          disabled={signInRunning}
          onStart={startElsewhere}
        />
      ) : null}
      {institutionsEnabled ? <InstitutionEntry search={search} disabled={signInRunning} /> : null}
    </div>
  );
}
