import { appLinkParams, GOOGLE_ERROR_PARAM, type GoogleErrorReason, isGoogleErrorReason } from "@kpi-id/contracts";
import { useIsMutating } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import { RefusalAlert } from "@/components/refusal-alert.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { TextSeparator } from "@/components/ui/separator.tsx";
import { useAppLinkProblem } from "@/features/auth/api/check-app-link.ts";
import { signInMutationKey } from "@/features/auth/api/login.ts";
import { useFinishSignIn } from "@/features/auth/api/use-finish-sign-in.ts";
import { DiiaEntry } from "@/features/auth/components/diia-entry.tsx";
import { GoogleButton } from "@/features/auth/components/google-button.tsx";
import { LoginForm } from "@/features/auth/components/login-form.tsx";
import { localizedHref, localizePath, RETURN_TO_PARAM } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { EntryGate } from "../gates/entry-gate.tsx";
import { SettingsUnavailable } from "./settings-unavailable.tsx";

/**
 * Reads google_auth_error once (the server's reason code; anything unknown counts as "failed"),
 * then removes it from the URL so a reload does not show it again.
 */
function asReason(value: string | null): GoogleErrorReason | null {
  return value === null || isGoogleErrorReason(value) ? value : "failed";
}

function useGoogleError(): [GoogleErrorReason | null, () => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const present = searchParams.get(GOOGLE_ERROR_PARAM);
  const [shown, setShown] = useState<GoogleErrorReason | null>(() => asReason(present));
  useEffect(() => {
    if (present === null) return;
    setShown(asReason(present));
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(GOOGLE_ERROR_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [present, setSearchParams]);
  return [shown, () => setShown(null)];
}

/**
 * One sign-in at a time: a password sign-in in the page, or Google's full-page flow once its button
 * is pressed (until the page comes back from the browser's cache, e.g. after Back).
 */
function useSignInRunning(): [boolean, () => void] {
  const passwordRunning = useIsMutating({ mutationKey: signInMutationKey }) > 0;
  const [googleStarted, setGoogleStarted] = useState(false);
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => event.persisted && setGoogleStarted(false);
    window.addEventListener("pageshow", reset);
    return () => window.removeEventListener("pageshow", reset);
  }, []);
  return [passwordRunning || googleStarted, () => setGoogleStarted(true)];
}

export function LoginScreen() {
  const { t } = useTranslation("auth");
  const language = useLanguage();
  const { search } = useLocation();
  const settings = useSettings();
  const [googleError, clearGoogleError] = useGoogleError();
  const finishSignIn = useFinishSignIn(search);
  const [signInRunning, startGoogle] = useSignInRunning();
  const appLinkProblem = useAppLinkProblem(search);
  const googleEnabled = settings.data?.googleEnabled ?? false;
  const diiaEnabled = settings.data?.diiaEnabled ?? false;
  // The server sends a one-factor session here (mfa=1) when an application or its acr_values ask for more.
  const stepUp = new URLSearchParams(search).get("mfa") === "1";
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{t("auth:login.title")}</h1>
        <p className="text-muted-foreground">{t("auth:login.description")}</p>
      </div>
      {stepUp ? (
        <Alert title={t("auth:login.mfaRequired.title")} testId="mfa-required">
          {t(diiaEnabled ? "auth:login.mfaRequired.descriptionWithDiia" : "auth:login.mfaRequired.description")}
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
      <div className="rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <LoginForm onSignedIn={finishSignIn} onAttempt={clearGoogleError} disabled={signInRunning} />
        {diiaEnabled || settings.data?.emailRecoveryEnabled ? (
          <Link
            to={localizePath(language, "/forgot-password")}
            className="mt-4 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {t("auth:login.forgotPassword")}
          </Link>
        ) : null}
      </div>
      {settings.isError ? <SettingsUnavailable what="signIn" /> : null}
      {diiaEnabled || googleEnabled ? <TextSeparator text={t("auth:login.or")} /> : null}
      {diiaEnabled ? (
        <DiiaEntry
          href={localizedHref(language, "/diia", search, [...appLinkParams, RETURN_TO_PARAM])}
          title={t("auth:login.diia.title")}
          description={t("auth:login.diia.description")}
          disabled={signInRunning}
        />
      ) : null}
      {googleEnabled ? (
        <GoogleButton label={t("auth:login.google")} search={search} disabled={signInRunning} onStart={startGoogle} />
      ) : null}
    </div>
  );
}

export function LoginRoute() {
  return (
    <EntryGate>
      <LoginScreen />
    </EntryGate>
  );
}
