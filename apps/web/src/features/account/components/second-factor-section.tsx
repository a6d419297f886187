import { appLinkParams, type TotpSetup } from "@kpi-id/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Smartphone } from "lucide-react";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizedHref } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useAccountChange } from "../api/account-changes.ts";
import { accountQueryKey } from "../api/account-queries.ts";
import {
  confirmTotp,
  newRecoveryCodes,
  startTotpSetup,
  turnOffTotp,
  useSecondFactorStatus,
} from "../api/second-factor.ts";
import { AccountSection } from "./account-section.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/** What set-up shows once: the ten recovery codes, and where a waiting sign-in goes on after them. */
interface ShownCodes {
  codes: string[];
  next?: string;
}

/**
 * The ten recovery codes, shown once: the person writes them down or prints the page. When a sign-in
 * led them here to set the factor up, saving the codes goes on to it (the server chose `next`).
 */
function RecoveryCodesList({ codes, next, onDone }: ShownCodes & { onDone: () => void }) {
  const { t } = useTranslation("account");
  return (
    <Alert title={t("account:secondFactor.codesTitle")} testId="recovery-codes">
      <p>{t("account:secondFactor.codesHint")}</p>
      <ul className="my-3 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      {next ? <p className="mb-3">{t("account:secondFactor.codesContinueHint")}</p> : null}
      <Button size="sm" onClick={next ? () => browser.assign(next) : onDone}>
        {t(next ? "account:secondFactor.codesContinue" : "account:secondFactor.codesDone")}
      </Button>
    </Alert>
  );
}

/** The QR code and the secret to type, and the first code that turns the app on. */
function TotpSetUp({ setup, onConfirmed }: { setup: TotpSetup; onConfirmed: (shown: ShownCodes) => void }) {
  const { t } = useTranslation("account");
  const describeError = useErrorMessage();
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  const language = useLanguage();
  const { search } = useLocation();
  // An application's sign-in link the sign-in screen brought here (set-up came first): go on to it after.
  const appLink = new URLSearchParams(search).has("appId")
    ? localizedHref(language, "/apps", search, appLinkParams)
    : undefined;
  const confirm = useMutation({
    mutationFn: () => confirmTotp(code.trim()),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: accountQueryKey });
      onConfirmed({ codes: answer.recoveryCodes, next: answer.next ?? appLink });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  return (
    <form className="flex flex-col gap-4 sm:flex-row sm:items-start" onSubmit={submit} data-testid="totp-setup">
      <div className="w-40 shrink-0 rounded-md bg-white p-2">
        <QRCodeSVG
          value={setup.uri}
          role="img"
          aria-label={t("account:secondFactor.qrLabel")}
          className="h-auto w-full"
        />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3 text-sm">
        <p>{t("account:secondFactor.scan")}</p>
        <p className="break-all font-mono text-xs" data-testid="totp-secret">
          {setup.secret}
        </p>
        <div className="space-y-1.5">
          <Label htmlFor="totp-first-code">{t("account:secondFactor.firstCode")}</Label>
          <Input
            id="totp-first-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        {confirm.isError ? (
          <Alert variant="destructive" title={t("account:secondFactor.confirmFailed")}>
            {describeError(confirm.error, "account:errors.generic").message}
          </Alert>
        ) : null}
        <Button type="submit" disabled={code.trim().length !== 6} loading={confirm.isPending}>
          {t("account:secondFactor.confirm")}
        </Button>
      </div>
    </form>
  );
}

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
              <Button variant="outline" size="sm" loading={regenerate.isPending} onClick={() => regenerate.mutate()}>
                {t("account:secondFactor.newCodes")}
              </Button>
              <Button variant="outline" size="sm" loading={turnOff.isPending} onClick={() => turnOff.mutate()}>
                {t("account:secondFactor.turnOff")}
              </Button>
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
