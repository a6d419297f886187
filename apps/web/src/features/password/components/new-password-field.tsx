import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Label } from "@/components/ui/label.tsx";
import { PasswordInput } from "@/features/auth/index.ts";
import { StrengthMeter } from "./strength-meter.tsx";

interface NewPasswordFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The person's username and names: a password built on them is refused. */
  contextWords: readonly string[];
  disabled?: boolean;
}

/** The new password with its strength meter underneath (pasting and password managers welcome). */
export function NewPasswordField({ value, onChange, contextWords, disabled }: NewPasswordFieldProps) {
  const { t } = useTranslation("password");
  const inputId = useId();
  const meterId = useId();
  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>{t("password:change.new")}</Label>
      <PasswordInput
        id={inputId}
        name="new-password"
        autoComplete="new-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={meterId}
        disabled={disabled}
        required
        showLabel={t("password:change.showPassword")}
        hideLabel={t("password:change.hidePassword")}
      />
      <StrengthMeter id={meterId} password={value} contextWords={contextWords} />
    </div>
  );
}
