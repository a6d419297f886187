import { useMutation } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { requestEmailReset } from "../api/password-api.ts";

/** One @ with something on each side and no spaces: enough to catch a slip; the server judges the rest. */
const looksLikeAddress = (value: string) => /^[^\s@]+@[^\s@]+$/.test(value);

/**
 * "Send me a link": the address, then the same words whatever the server knows about it (it answers
 * alike for every address, so the page cannot tell either).
 */
export function EmailRecoveryForm() {
  const { t } = useTranslation("password");
  const language = useLanguage();
  const describeError = useErrorMessage();
  const emailId = useId();
  const [email, setEmail] = useState("");
  const [malformed, setMalformed] = useState(false);
  const send = useMutation({ mutationFn: (address: string) => requestEmailReset(address, language) });
  // Checked here, not by type="email" (noValidate): the browser's bubble would speak the browser's language.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeAddress(address)) {
      setMalformed(true);
      document.getElementById(emailId)?.focus();
      return;
    }
    send.mutate(address);
  };
  if (send.isSuccess) {
    return (
      <Alert title={t("password:forgot.sent")} testId="recovery-sent">
        {t("password:forgot.sentDescription", { email: send.variables })}
      </Alert>
    );
  }
  return (
    <form
      className="flex flex-col gap-4 rounded-xl border border-border bg-white p-5 shadow-sm"
      onSubmit={submit}
      noValidate
    >
      <p className="text-sm text-muted-foreground">{t("password:forgot.emailDescription")}</p>
      <div className="space-y-2">
        <Label htmlFor={emailId}>{t("password:forgot.emailLabel")}</Label>
        <Input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setMalformed(false);
          }}
          maxLength={320}
          aria-invalid={malformed ? true : undefined}
          aria-describedby={malformed ? `${emailId}-error` : undefined}
        />
        {malformed ? (
          <p id={`${emailId}-error`} className="text-sm text-destructive-strong" data-testid="recovery-email-invalid">
            {t("password:forgot.emailInvalid")}
          </p>
        ) : null}
      </div>
      {send.isError ? (
        <Alert variant="destructive" title={t("password:forgot.notSent")} testId="recovery-error">
          {describeError(send.error, "errors:service.internal_error").message}
        </Alert>
      ) : null}
      <Button type="submit" loading={send.isPending} disabled={email.trim() === ""} icon={<Send aria-hidden />}>
        {t("password:forgot.send")}
      </Button>
    </form>
  );
}
