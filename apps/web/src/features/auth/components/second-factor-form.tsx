import { ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useSecondFactor } from "../api/second-factor.ts";

interface SecondFactorFormProps {
  /** The grant the correct password gave, owing its code. */
  grant: string;
  onSignedIn: (next: string) => Promise<void> | void;
  /** Back to the password form (another account, another way in). */
  onCancel: () => void;
}

/** After a correct password: the authenticator app's code or a recovery code, and "remember this browser". */
export default function SecondFactorForm({ grant, onSignedIn, onCancel }: SecondFactorFormProps) {
  const { t } = useTranslation("auth");
  const describeError = useErrorMessage();
  const prove = useSecondFactor(onSignedIn);
  const [code, setCode] = useState("");
  const [remember, setRemember] = useState(false);
  const rememberId = useId();
  const failure = prove.isError ? describeError(prove.error, "errors:auth.code_invalid") : undefined;
  return (
    <form
      className="space-y-4"
      aria-label={t("auth:secondFactor.title")}
      data-testid="second-factor-form"
      onSubmit={(event) => {
        event.preventDefault();
        prove.mutate({ sessionId: grant, code: code.trim(), rememberBrowser: remember });
      }}
    >
      <div className="space-y-1">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-foreground">
          <ShieldCheck className="size-5 text-primary" aria-hidden />
          {t("auth:secondFactor.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("auth:secondFactor.description")}</p>
      </div>
      {failure ? (
        <Alert variant="destructive" title={t("auth:secondFactor.failed")} testId="second-factor-error">
          {failure.message}
        </Alert>
      ) : null}
      <div className="space-y-2">
        <Label htmlFor="second-factor-code">{t("auth:secondFactor.code")}</Label>
        <Input
          id="second-factor-code"
          autoComplete="one-time-code"
          autoFocus
          maxLength={16}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <div className="flex items-center gap-2 text-sm">
        <input
          id={rememberId}
          type="checkbox"
          className="size-4 accent-primary"
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <label htmlFor={rememberId}>{t("auth:secondFactor.remember")}</label>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          type="submit"
          size="lg"
          className="w-full sm:flex-1"
          disabled={code.trim().length < 6}
          loading={prove.isPending}
        >
          {t("auth:secondFactor.submit")}
        </Button>
        <Button type="button" variant="ghost" size="lg" onClick={onCancel} disabled={prove.isPending}>
          {t("auth:secondFactor.back")}
        </Button>
      </div>
    </form>
  );
}
