import { isErrorCode } from "@kpi-id/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { browser } from "@/lib/browser.ts";
import { useCurrentUser } from "@/lib/current-user.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { continueToDevice, deviceFormQueryKey, useDeviceForm, useLookUpDeviceCode } from "../api/device.ts";
import { DeviceCodeForm } from "./device-code-form.tsx";
import { DeviceConfirm } from "./device-confirm.tsx";
import { DeviceResult } from "./device-result.tsx";

/** A person who is not signed in signs in first (any method), and the sign-in comes back here with the code. */
function SignInFirst({ userCode }: { userCode: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    continueToDevice(userCode || undefined).then(
      () => browser.assign(localizePath(language, "/")),
      () => setFailed(true),
    );
  }, [userCode, language]);
  if (failed) return <Alert variant="destructive" title={t("consent:error.generic")} testId="device-error" />;
  return <PageSpinner label={t("common:loading")} />;
}

/** The signed-in person's steps: type the code, see what it asks for, allow or deny. */
function SignedInDevice({ userCode, returnedError }: { userCode: string; returnedError: string | undefined }) {
  const { t } = useTranslation(["consent", "errors"]);
  const describeError = useErrorMessage();
  const queryClient = useQueryClient();
  const form = useDeviceForm(true);
  const lookUp = useLookUpDeviceCode();
  const [shownError, setShownError] = useState(returnedError);

  if (form.isPending) return <PageSpinner label={t("common:loading")} />;
  if (form.isError) {
    return (
      <Alert variant="destructive" title={t("consent:error.title")} testId="device-error">
        {describeError(form.error, "consent:error.generic").message}
      </Alert>
    );
  }
  if (lookUp.isSuccess) return <DeviceConfirm request={lookUp.data} onBack={() => lookUp.reset()} />;
  const error = lookUp.isError ? describeError(lookUp.error, "consent:error.generic").message : shownError;
  return (
    <DeviceCodeForm
      initialCode={lookUp.variables?.userCode ?? userCode}
      error={error}
      checking={lookUp.isPending}
      onSubmit={(typed) => {
        setShownError(undefined);
        lookUp.mutate(
          { xsrf: form.data.xsrf, userCode: typed },
          // The provider hands out a new form token with every refusal.
          { onError: () => queryClient.invalidateQueries({ queryKey: deviceFormQueryKey }) },
        );
      }}
    />
  );
}

/**
 * /{lang}/device (RFC 8628's verification address): a bot, a terminal or a lecture-hall screen shows a
 * code and this address; the person signs in, types the code (or arrives with it), checks what the
 * device asks for and allows or denies it. The provider sends the browser back with `result` or `error`.
 */
export function DeviceScreen() {
  const { t } = useTranslation(["consent", "errors"]);
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const result = params.get("result");
  const userCode = params.get("user_code") ?? "";
  const errorCode = params.get("error");
  const returnedError =
    errorCode && isErrorCode(errorCode) ? t(`errors:${errorCode}`, { when: t("errors:later") }) : undefined;

  let body: ReactNode;
  if (result === "allowed" || result === "denied") body = <DeviceResult result={result} />;
  else if (user.isPending) body = <PageSpinner label={t("common:loading")} />;
  else if (!user.data) body = <SignInFirst userCode={userCode} />;
  else body = <SignedInDevice userCode={userCode} returnedError={returnedError} />;
  return <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14">{body}</div>;
}
