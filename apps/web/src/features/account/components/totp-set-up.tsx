import { appLinkParams, type TotpSetup } from "@kpi-id/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Smartphone } from "lucide-react";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { localizedHref } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useIsMobile } from "@/lib/use-media-query.ts";
import { accountQueryKey } from "../api/account-queries.ts";
import { confirmTotp } from "../api/second-factor.ts";
import type { ShownCodes } from "./recovery-codes-list.tsx";

/** The QR code and the secret to type, and the first code that turns the app on. */
export function TotpSetUp({ setup, onConfirmed }: { setup: TotpSetup; onConfirmed: (shown: ShownCodes) => void }) {
  const { t } = useTranslation("account");
  const describeError = useErrorMessage();
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  const language = useLanguage();
  const isMobile = useIsMobile();
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
        {/* On the phone that holds the authenticator a QR code cannot be scanned: the otpauth link opens it. */}
        {isMobile ? (
          <Button asChild variant="outline" size="sm" className="self-start">
            <a href={setup.uri} data-testid="totp-open-app">
              <Smartphone aria-hidden />
              {t("account:secondFactor.openApp")}
            </a>
          </Button>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <p className="break-all font-mono text-xs" data-testid="totp-secret">
            {setup.secret}
          </p>
          <CopyButton text={setup.secret} copiedMessage={t("account:secondFactor.keyCopied")}>
            {t("account:secondFactor.copyKey")}
          </CopyButton>
        </div>
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
