import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, QrCode } from "lucide-react";
import { type FormEvent, lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent } from "@/components/ui/dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { login } from "@/features/auth/api/login.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { continueToAccount } from "../api/account-changes.ts";
import { useAccountMethods } from "../api/account-queries.ts";

// A person with a second factor gives its code too; loaded only then.
const SecondFactorForm = lazy(() => import("@/features/auth/components/second-factor-form.tsx"));

interface ReauthDialogProps {
  open: boolean;
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
export function ReauthDialog({ open, onClose, onConfirmed }: ReauthDialogProps) {
  const { t } = useTranslation(["account", "auth", "errors"]);
  const language = useLanguage();
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  const known = methods.data;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent
        title={t("account:reauth.title")}
        description={t("account:reauth.description")}
        closeLabel={t("common:actions.close")}
        data-testid="reauth-dialog"
      >
        <div className="flex flex-col gap-4">
          {owingCode ? (
            <Suspense fallback={null}>
              <SecondFactorForm grant={owingCode} onSignedIn={signedInAgain} onCancel={() => setOwingCode(undefined)} />
            </Suspense>
          ) : known?.password ? (
            <form className="flex flex-col gap-3" onSubmit={submit}>
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
              <Button type="submit" loading={confirm.isPending} icon={<KeyRound aria-hidden />}>
                {t("account:reauth.confirm")}
              </Button>
            </form>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row">
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
