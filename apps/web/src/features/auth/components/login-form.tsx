import type { ErrorCode } from "@kpi-id/contracts";
import { KeyRound, LogIn } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { type LoginForm as LoginValues, loginFieldRules, useLogin } from "../api/password-login.ts";
import { passkeysSupported, usePasskeySignIn } from "../api/use-passkey-sign-in.ts";
import { LockedOutHelp } from "./locked-out-help.tsx";
import { PasswordInput } from "./password-input.tsx";

// Only people with a second factor see it: it stays out of the login screen's first load.
const SecondFactorForm = lazy(() => import("./second-factor-form.tsx"));

const INVALID_CREDENTIALS = "auth:login.invalidCredentials.description";

/**
 * A Google sign-in of a person with a second factor comes back with its grant in the address's fragment
 * (`#second-factor=…`): the code is asked for here. The fragment is taken off the address at once.
 */
function grantFromAddress(): string | undefined {
  if (typeof window === "undefined") return undefined;
  const grant = new URLSearchParams(window.location.hash.slice(1)).get("second-factor");
  if (!grant) return undefined;
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  return grant;
}

/**
 * Wrong credentials (or a failure without a code) keep the spec's invalid-credentials alert; every other
 * code says what happened (too many attempts and when to try again, another origin, a brief outage).
 */
function SignInFailure({ code, message }: { code: ErrorCode | undefined; message: string }) {
  const { t } = useTranslation("auth");
  const wrongCredentials = code === undefined || code === "auth.invalid_credentials";
  return (
    <Alert
      variant="destructive"
      title={t("auth:login.invalidCredentials.title")}
      testId={wrongCredentials ? "invalid-credentials" : "sign-in-error"}
    >
      {wrongCredentials ? t(INVALID_CREDENTIALS) : message}
      {code === "auth.too_many_attempts" ? <LockedOutHelp /> : null}
    </Alert>
  );
}

interface LoginFormProps {
  onSignedIn: (next: string) => Promise<void> | void;
  /** Called when a new attempt starts, so an earlier Google error alert goes away. */
  onAttempt?: () => void;
  /** Another sign-in (Google) is under way: the form waits. */
  disabled?: boolean;
}

export function LoginForm({ onSignedIn, onAttempt, disabled = false }: LoginFormProps) {
  const { t } = useTranslation("auth");
  const [owingCode, setOwingCode] = useState<string | undefined>(grantFromAddress);
  const login = useLogin(onSignedIn, setOwingCode);
  const passkey = usePasskeySignIn(onSignedIn);
  const describeError = useErrorMessage();
  const { register, handleSubmit, formState, setFocus } = useForm<LoginValues>({
    mode: "onChange",
    defaultValues: { username: "", password: "" },
  });
  const busy = login.isPending || passkey.pending || disabled;

  // The fields and the button are disabled while the attempt runs, which drops the focus to <body>:
  // after a failure it goes back to the first field, under the alert that says what went wrong.
  useEffect(() => {
    if (login.isError) setFocus("username", { shouldSelect: true });
  }, [login.isError, setFocus]);

  const submit = handleSubmit((values) => {
    onAttempt?.();
    passkey.reset();
    login.mutate(values);
  });

  if (owingCode) {
    return (
      <Suspense fallback={null}>
        <SecondFactorForm
          grant={owingCode}
          onSignedIn={onSignedIn}
          onCancel={() => {
            setOwingCode(undefined);
            login.reset();
          }}
        />
      </Suspense>
    );
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate aria-label={t("auth:login.formLabel")}>
      {login.isError ? <SignInFailure {...describeError(login.error, INVALID_CREDENTIALS)} /> : null}
      {passkey.error ? (
        <Alert variant="destructive" title={t("auth:login.passkey.failed")} testId="passkey-error">
          {describeError(passkey.error, "auth:login.passkey.browserFailed").message}
        </Alert>
      ) : null}
      <div className="space-y-2">
        <Label htmlFor="username">{t("auth:login.username")}</Label>
        <Input
          id="username"
          // "webauthn": the browser offers the person's passkeys here too (conditional mediation).
          autoComplete="username webauthn"
          disabled={busy}
          {...register("username", loginFieldRules.username)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="password">{t("auth:login.password")}</Label>
        <PasswordInput
          id="password"
          autoComplete="current-password"
          disabled={busy}
          showLabel={t("auth:login.showPassword")}
          hideLabel={t("auth:login.hidePassword")}
          {...register("password", loginFieldRules.password)}
        />
      </div>
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={!formState.isValid || disabled}
        loading={login.isPending}
        icon={<LogIn aria-hidden />}
      >
        {t("auth:login.submit")}
      </Button>
      {passkeysSupported() ? (
        <Button
          type="button"
          variant="outline"
          size="lg"
          className="w-full"
          disabled={busy}
          loading={passkey.pending}
          icon={<KeyRound aria-hidden />}
          onClick={() => {
            onAttempt?.();
            login.reset();
            passkey.start();
          }}
        >
          {t("auth:login.passkey.button")}
        </Button>
      ) : null}
    </form>
  );
}
