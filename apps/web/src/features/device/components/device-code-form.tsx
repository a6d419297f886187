import { MonitorSmartphone } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";

// The form's usual input, taller and with large spaced digits (Input's own height and size would conflict).
const codeInputClass =
  "flex h-14 w-full rounded-md border border-input bg-white px-3 py-2 text-center font-mono text-2xl tracking-widest text-foreground shadow-xs transition-colors placeholder:text-muted-foreground focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive";

/** Eight digits as the device shows them, 1234-5678: whatever else the person types is dropped. */
export function formatUserCode(typed: string): string {
  const digits = typed.replace(/\D/g, "").slice(0, 8);
  return digits.length > 4 ? `${digits.slice(0, 4)}-${digits.slice(4)}` : digits;
}

interface Props {
  initialCode: string;
  /** What went wrong with the last code (a translated message), if anything. */
  error: string | undefined;
  checking: boolean;
  onSubmit: (userCode: string) => void;
}

/** Step one: the code from the device's screen (prefilled from the device's link). */
export function DeviceCodeForm({ initialCode, error, checking, onSubmit }: Props) {
  const { t } = useTranslation("consent");
  const inputId = useId();
  const [code, setCode] = useState(() => formatUserCode(initialCode));
  const complete = code.length === 9;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete) onSubmit(code);
  };
  return (
    <div className="flex flex-col gap-6">
      <div className="space-y-2">
        <MonitorSmartphone className="size-10 text-primary" aria-hidden />
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{t("device.enter.title")}</h1>
        <p className="text-muted-foreground">{t("device.enter.description")}</p>
      </div>
      <form
        className="flex flex-col gap-4 rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6"
        onSubmit={submit}
        noValidate
      >
        <div className="space-y-2">
          <Label htmlFor={inputId}>{t("device.enter.label")}</Label>
          <input
            id={inputId}
            name="user_code"
            inputMode="numeric"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="1234-5678"
            className={codeInputClass}
            value={code}
            onChange={(event) => setCode(formatUserCode(event.target.value))}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            data-testid="device-code-input"
          />
        </div>
        {error ? (
          <Alert variant="destructive" title={t("device.enter.failed")} testId="device-code-error">
            <span id={`${inputId}-error`}>{error}</span>
          </Alert>
        ) : null}
        <Button type="submit" loading={checking} disabled={!complete}>
          {t("device.enter.continue")}
        </Button>
      </form>
      <p className="text-sm text-muted-foreground">{t("device.enter.note")}</p>
    </div>
  );
}
