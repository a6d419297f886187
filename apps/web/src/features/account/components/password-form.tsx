import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { PasswordInput } from "@/features/auth/index.ts";
import { changePassword, NewPasswordField } from "@/features/password/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { needsReauth } from "../api/account-changes.ts";
import { accountQueryKey } from "../api/account-queries.ts";
import type { AskAgain } from "./use-reauth.tsx";

interface PasswordFormProps {
  /** The person has a password: the current one is asked; else this sets a first one. */
  hasPassword: boolean;
  username: string;
  contextWords: readonly string[];
  askAgain: AskAgain;
  onClose: () => void;
}

/**
 * Change the password (or set one when the person signs in with Diia or Google only). A stale sign-in
 * brings the "confirm it is you" dialog and the change is sent again; other refusals stay in the form.
 */
export function PasswordForm({ hasPassword, username, contextWords, askAgain, onClose }: PasswordFormProps) {
  const { t } = useTranslation(["password", "account"]);
  const queryClient = useQueryClient();
  const describeError = useErrorMessage();
  const currentId = useId();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: async ({ endedSessions }) => {
      notify("success", t("password:change.changed", { count: endedSessions }));
      await queryClient.invalidateQueries({ queryKey: accountQueryKey });
      onClose();
    },
    onError: (error, input) => {
      if (needsReauth(error)) askAgain(() => change.mutate(input), error);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(hasPassword ? { currentPassword, newPassword } : { newPassword });
  };
  const refusal = change.isError && !needsReauth(change.error) ? change.error : null;
  return (
    <form
      className="flex flex-col gap-4 border-t border-border p-3"
      onSubmit={submit}
      noValidate
      data-testid="password-form"
    >
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      {hasPassword ? (
        <div className="space-y-2">
          <Label htmlFor={currentId}>{t("password:change.current")}</Label>
          <PasswordInput
            id={currentId}
            name="current-password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
            required
            showLabel={t("password:change.showPassword")}
            hideLabel={t("password:change.hidePassword")}
          />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t("password:change.setDescription")}</p>
      )}
      <NewPasswordField
        value={newPassword}
        onChange={(typed) => {
          setNewPassword(typed);
          // The refusal was about the password as it was: a changed one has not been judged yet.
          if (refusal) change.reset();
        }}
        contextWords={contextWords}
      />
      {refusal ? (
        <Alert variant="destructive" title={t("password:change.refused")} testId="password-refused">
          {describeError(refusal, "account:errors.generic").message}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          type="submit"
          loading={change.isPending}
          disabled={newPassword === "" || (hasPassword && currentPassword === "")}
        >
          {hasPassword ? t("password:change.submit") : t("password:change.setSubmit")}
        </Button>
        <Button type="button" variant="ghost" onClick={onClose}>
          {t("password:change.cancel")}
        </Button>
      </div>
    </form>
  );
}
