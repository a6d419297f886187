import { useMutation, useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LiveStatus } from "@/components/ui/live-status.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { checkResetToken, resetPassword } from "../api/password-api.ts";
import { contextWordsOf } from "../strength/estimate.ts";
import { NewPasswordField } from "./new-password-field.tsx";

const linkInvalid = (error: unknown) => error instanceof ApiError && error.code === "recovery.link_invalid";

interface ResetPasswordFormProps {
  /** The one-time token from the link (or from a Diia proof); empty when the page was opened without one. */
  token: string;
  forgotHref: string;
  signInHref: string;
}

function LinkInvalid({ forgotHref }: { forgotHref: string }) {
  const { t } = useTranslation("password");
  return (
    <div className="flex flex-col gap-4">
      <Alert variant="destructive" title={t("password:reset.invalid")} testId="reset-link-invalid">
        {t("password:reset.invalidDescription")}
      </Alert>
      <Button asChild variant="outline">
        <Link to={forgotHref}>{t("password:reset.askAgain")}</Link>
      </Button>
    </div>
  );
}

/** The reset link's page: whose account it is, a new password with its meter, and then "sign in". */
export function ResetPasswordForm({ token, forgotHref, signInHref }: ResetPasswordFormProps) {
  const { t } = useTranslation("password");
  const describeError = useErrorMessage();
  const [newPassword, setNewPassword] = useState("");
  const holder = useQuery({
    queryKey: ["password-reset", token],
    queryFn: () => checkResetToken(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
  });
  const reset = useMutation({ mutationFn: () => resetPassword(token, newPassword) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate();
  };
  if (reset.isSuccess) {
    return (
      <div className="flex flex-col gap-4">
        <Alert title={t("password:reset.done")} testId="reset-done">
          {t("password:reset.doneDescription")}
        </Alert>
        <Button asChild>
          <Link to={signInHref}>{t("password:reset.signIn")}</Link>
        </Button>
      </div>
    );
  }
  if (token === "" || linkInvalid(holder.error) || linkInvalid(reset.error))
    return <LinkInvalid forgotHref={forgotHref} />;
  if (holder.isError) {
    return <Alert variant="destructive" title={describeError(holder.error, "errors:service.internal_error").message} />;
  }
  if (!holder.data) {
    // Said by a status whose words go in after it enters (LiveStatus says why), not by an aria-label it starts with.
    return (
      <LiveStatus words={t("password:reset.checking")}>
        <Skeleton className="h-40 w-full" />
      </LiveStatus>
    );
  }
  const { username, fullName } = holder.data;
  return (
    <form
      className="flex flex-col gap-4 rounded-xl border border-border bg-white p-5 shadow-sm"
      onSubmit={submit}
      noValidate
    >
      <p className="text-sm text-muted-foreground" data-testid="reset-holder">
        {t("password:reset.for", { name: fullName, username })}
      </p>
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <NewPasswordField
        value={newPassword}
        onChange={(typed) => {
          setNewPassword(typed);
          // The refusal was about the password as it was: a changed one has not been judged yet.
          if (reset.isError) reset.reset();
        }}
        contextWords={contextWordsOf({ username, fullName })}
      />
      {reset.isError ? (
        <Alert variant="destructive" title={t("password:change.refused")} testId="password-refused">
          {describeError(reset.error, "errors:service.internal_error").message}
        </Alert>
      ) : null}
      <Button type="submit" loading={reset.isPending} disabled={newPassword === ""} icon={<KeyRound aria-hidden />}>
        {t("password:reset.submit")}
      </Button>
    </form>
  );
}
