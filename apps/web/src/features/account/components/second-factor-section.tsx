import type { TotpSetup } from "@kpi-id/contracts";
import { Smartphone } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAccountChange } from "../api/account-changes.ts";
import { newRecoveryCodes, startTotpSetup, turnOffTotp, useSecondFactorStatus } from "../api/second-factor.ts";
import { AccountSection } from "./account-section.tsx";
import { RecoveryCodesList, type ShownCodes } from "./recovery-codes-list.tsx";
import { TotpSetUp } from "./totp-set-up.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/** The authenticator app as the second factor: set it up, get new recovery codes, turn it off. */
export function SecondFactorSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const status = useSecondFactorStatus();
  const [setup, setSetup] = useState<TotpSetup>();
  const [codes, setCodes] = useState<ShownCodes>();
  const start = useAccountChange(async () => setSetup(await startTotpSetup()), askAgain);
  const regenerate = useAccountChange(
    async () => setCodes({ codes: (await newRecoveryCodes()).recoveryCodes }),
    askAgain,
  );
  const turnOff = useAccountChange(turnOffTotp, askAgain);
  const known = status.data;
  const on = known?.totp === true;
  return (
    <div id="second-factor">
      <AccountSection
        id="second-factor"
        icon={Smartphone}
        title={t("account:secondFactor.title")}
        description={t("account:secondFactor.description")}
      >
        {known?.required && !on ? (
          <Alert variant="destructive" title={t("account:secondFactor.requiredTitle")} testId="second-factor-required">
            {t("account:secondFactor.required")}
          </Alert>
        ) : null}
        {codes ? <RecoveryCodesList {...codes} onDone={() => setCodes(undefined)} /> : null}
        {!known ? (
          <Skeleton className="h-10 w-full" />
        ) : on ? (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm" data-testid="second-factor-state">
              {t("account:secondFactor.on", { count: known.recoveryCodesLeft })}
            </p>
            <div className="flex flex-wrap gap-2">
              <ConfirmButton
                loading={regenerate.isPending}
                question={t("account:secondFactor.confirmNewCodes.question")}
                consequence={t("account:secondFactor.confirmNewCodes.consequence")}
                confirmLabel={t("account:secondFactor.newCodes")}
                onConfirm={() => regenerate.mutate()}
              >
                {t("account:secondFactor.newCodes")}
              </ConfirmButton>
              <ConfirmButton
                loading={turnOff.isPending}
                question={t("account:secondFactor.confirmTurnOff.question")}
                consequence={t("account:secondFactor.confirmTurnOff.consequence")}
                confirmLabel={t("account:secondFactor.turnOff")}
                onConfirm={() => turnOff.mutate()}
              >
                {t("account:secondFactor.turnOff")}
              </ConfirmButton>
            </div>
          </div>
        ) : setup ? (
          <TotpSetUp
            setup={setup}
            onConfirmed={(shown) => {
              setSetup(undefined);
              setCodes(shown);
            }}
          />
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground" data-testid="second-factor-state">
              {t("account:secondFactor.off")}
            </p>
            <Button size="sm" loading={start.isPending} onClick={() => start.mutate(undefined)}>
              {t("account:secondFactor.setUp")}
            </Button>
          </div>
        )}
      </AccountSection>
    </div>
  );
}
