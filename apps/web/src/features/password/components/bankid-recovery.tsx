import { useTranslation } from "react-i18next";
import { BankIdEntry } from "@/features/bankid/index.ts";
import { useSettings } from "@/lib/settings.ts";

/**
 * Forgot password with BankID: the usual BankID flow with purpose=recovery. The server checks the bank's
 * answer and, for the person it names, sends the browser to set a new password instead of signing in.
 */
export function BankIdRecovery() {
  const { t } = useTranslation("password");
  const settings = useSettings();
  return (
    <div className="space-y-4" data-testid="bankid-recovery">
      <p className="text-foreground">{t("password:forgot.bankidSteps")}</p>
      <BankIdEntry
        label={t("password:forgot.bankidStart")}
        search=""
        purpose="recovery"
        bankPicker={settings.data?.bankIdBankPicker ?? false}
      />
    </div>
  );
}
