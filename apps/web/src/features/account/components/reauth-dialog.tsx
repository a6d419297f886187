import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint, KeyRound, QrCode } from "lucide-react";
import { type FormEvent, lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent } from "@/components/ui/dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { login, passkeysSupported } from "@/features/auth/index.ts";
import { ApiError } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { continueToAccount } from "../api/account-changes.ts";
import { useAccountMethods } from "../api/account-queries.ts";
import { usePasskeys } from "../api/passkeys.ts";
import { useSecondFactorStatus } from "../api/second-factor.ts";
import { useReauthWindow } from "./use-reauth-window.ts";

// A person with a second factor gives its code too; loaded only then.
const SecondFactorForm = lazy(() => import("@/features/auth/second-factor-form.ts"));

interface ReauthDialogProps {
  open: boolean;
  /** The server's refusal that opened the dialog (its message is shown). */
  reason?: unknown;
  onClose: () => void;
  /** The person signed in again on this page: the change can be repeated. */
  onConfirmed: () => void;
}

/** Diia and Google sign in on their own pages; the server brings the browser back to the account page. */
async function signInElsewhere(target: string) {
  await continueToAccount();
  browser.assign(target);
}

/**
 * "Confirm it is you": the password again (a fresh sign-in in this browser, the page stays), or Diia or
 * Google (their usual flow, back to the account page afterwards).
 */
export function ReauthDialog({ open, reason, onClose, onConfirmed }: ReauthDialogProps) {
  const { t } = useTranslation(["account", "auth", "errors"]);
  const language = useLanguage();
  const reauthWindow = useReauthWindow();
  const methods = useAccountMethods();
  const queryClient = useQueryClient();
  const describeError = useErrorMessage();
  const passwordId = useId();
  const [password, setPassword] = useState("");
  const [owingCode, setOwingCode] = useState<string>();
  const signedInAgain = async () => {
    setOwingCode(undefined);
    await queryClient.invalidateQueries();
    onConfirmed();
  };
  const confirm = useMutation({
    mutationFn: () => login({ username: methods.data?.username ?? "", password }),
    onSuccess: async (step) => {
      setPassword("");
      if ("secondFactorFor" in step) setOwingCode(step.secondFactorFor);
      else await signedInAgain();
    },
  });
  const elsewhere = useMutation({ mutationFn: signInElsewhere });
  // A person with a passkey may prove it with the passkey (a sign-in with two factors in one).
  const passkeys = usePasskeys();
  const withPasskey = useMutation({
    mutationFn: async () => (await import("@/features/auth/passkey-sign-in.ts")).passkeySignIn(false),
    onSuccess: async (next) => (next ? signedInAgain() : undefined),
  });
  const secondFactorAsked = reason instanceof ApiError && reason.code === "auth.reauth_second_factor_required";
  // Asked for the second factor, a person without an authenticator app proves it with a passkey or Diia: a password
  // alone would be refused again.
  const secondFactor = useSecondFactorStatus();
  const passwordProves = !secondFactorAsked || secondFactor.data?.totp === true;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  const known = methods.data;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent
        title={t("account:reauth.title")}
        description={t("account:reauth.description", { window: reauthWindow })}
        closeLabel={t("common:actions.close")}
        data-testid="reauth-dialog"
      >
        <div className="flex flex-col gap-4">
          {secondFactorAsked ? (
            <p className="text-sm" data-testid="reauth-second-factor">
              {describeError(reason, "account:errors.generic").message}
            </p>
          ) : null}
          {owingCode ? (
            <Suspense fallback={null}>
              <SecondFactorForm grant={owingCode} onSignedIn={signedInAgain} onCancel={() => setOwingCode(undefined)} />
            </Suspense>
          ) : known?.password && passwordProves ? (
            <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
              <input type="text" name="username" autoComplete="username" value={known.username} readOnly hidden />
              <div className="space-y-1.5">
                <Label htmlFor={passwordId}>{t("auth:login.password")}</Label>
                <Input
                  id={passwordId}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  required
                />
              </div>
              {confirm.isError ? (
                <Alert variant="destructive" title={t("account:reauth.failed")}>
                  {describeError(confirm.error, "account:errors.generic").message}
                </Alert>
              ) : null}
              <Button
                type="submit"
                loading={confirm.isPending}
                disabled={password === ""}
                icon={<KeyRound aria-hidden />}
              >
                {t("account:reauth.confirm")}
              </Button>
            </form>
          ) : null}
          {withPasskey.isError ? (
            <Alert variant="destructive" title={t("account:reauth.failed")}>
              {describeError(withPasskey.error, "account:errors.generic").message}
            </Alert>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row">
            {passkeysSupported() && (passkeys.data?.length ?? 0) > 0 ? (
              <Button
                variant="outline"
                className="flex-1"
                icon={<Fingerprint aria-hidden />}
                loading={withPasskey.isPending}
                onClick={() => withPasskey.mutate()}
                data-testid="reauth-passkey"
              >
                {t("account:reauth.passkey")}
              </Button>
            ) : null}
            {known?.diia.usable ? (
              <Button
                variant="outline"
                className="flex-1"
                icon={<QrCode aria-hidden />}
                disabled={elsewhere.isPending}
                onClick={() => elsewhere.mutate(`${localizePath(language, "/diia")}?reauth=1`)}
              >
                {t("account:reauth.diia")}
              </Button>
            ) : null}
            {known?.google.linked && known.google.available ? (
              <Button
                variant="outline"
                className="flex-1"
                disabled={elsewhere.isPending}
                onClick={() => elsewhere.mutate("/api/google/redirect")}
              >
                {t("account:reauth.google")}
              </Button>
            ) : null}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
