import type { CreatedWifiPassword, WifiPasswords } from "@kpi-id/contracts";
import { Wifi } from "lucide-react";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAccountChange } from "../api/account-changes.ts";
import { createWifiPassword, revokeWifiPassword, useWifiPasswords, wifiQrText } from "../api/wifi.ts";
import { AccountList, AccountSection } from "./account-section.tsx";
import { NewPasswordForm } from "./new-password-form.tsx";
import { ShownOncePanel } from "./shown-once-panel.tsx";
import type { AskAgain } from "./use-reauth.tsx";
import { WifiPasswordRow } from "./wifi-password-row.tsx";

/** The new password, shown once: a QR code a phone joins with, the text to type or copy. */
function NewWifiPassword({
  created,
  wifi,
  onDone,
}: {
  created: CreatedWifiPassword;
  wifi: WifiPasswords;
  onDone: () => void;
}) {
  const { t } = useTranslation("account");
  return (
    <ShownOncePanel
      testId="wifi-new"
      note={t("account:wifi.shownOnce", { name: created.name })}
      secret={created.password}
      copyLabel={t("account:wifi.copy")}
      copiedMessage={t("account:wifi.copied")}
      doneLabel={t("account:wifi.done")}
      onDone={onDone}
      aside={
        <div className="w-40 shrink-0 rounded-md bg-white p-2">
          <QRCodeSVG
            value={wifiQrText(wifi.ssid, wifi.anonymousIdentity, created.identity, created.password)}
            role="img"
            aria-label={t("account:wifi.qrLabel")}
            className="h-auto w-full"
          />
        </div>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted-foreground">{t("account:wifi.network")}</dt>
        <dd className="font-mono">{wifi.ssid}</dd>
        <dt className="text-muted-foreground">{t("account:wifi.identity")}</dt>
        <dd className="break-all font-mono">{created.identity}</dd>
        <dt className="text-muted-foreground">{t("account:wifi.anonymousIdentity")}</dt>
        <dd className="break-all font-mono">{wifi.anonymousIdentity}</dd>
        <dt className="text-muted-foreground">{t("account:wifi.password")}</dt>
        <dd className="break-all font-mono" data-testid="wifi-new-password">
          {created.password}
        </dd>
      </dl>
      <p className="text-muted-foreground">{t("account:wifi.howTo")}</p>
    </ShownOncePanel>
  );
}

/** Wi-Fi (eduroam): one generated password per device, never the KPI ID password (docs/eduroam.md). */
export function WifiSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const wifi = useWifiPasswords();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedWifiPassword | null>(null);
  const create = useAccountChange(async (newName: string) => {
    setCreated(await createWifiPassword(newName));
    setName("");
  }, askAgain);
  const revoke = useAccountChange(revokeWifiPassword, askAgain);
  if (wifi.data === null) return null;
  const full = wifi.data ? wifi.data.passwords.length >= wifi.data.limit : false;
  return (
    <AccountSection
      id="wifi"
      icon={Wifi}
      title={t("account:wifi.title")}
      description={t("account:wifi.description", { ssid: wifi.data?.ssid ?? "eduroam" })}
    >
      {!wifi.data ? (
        <Skeleton className="h-16 w-full" />
      ) : (
        <>
          {wifi.data.wifiOff ? (
            <Alert variant="destructive" title={t("account:wifi.offTitle")}>
              {t("account:wifi.off")}
            </Alert>
          ) : null}
          {created ? <NewWifiPassword created={created} wifi={wifi.data} onDone={() => setCreated(null)} /> : null}
          {wifi.data.passwords.length > 0 ? (
            <AccountList label={t("account:wifi.title")}>
              {wifi.data.passwords.map((password) => (
                <WifiPasswordRow
                  key={password.id}
                  password={password}
                  onRevoke={() => revoke.mutate(password.id)}
                  revoking={revoke.isPending && revoke.variables === password.id}
                />
              ))}
            </AccountList>
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="wifi-none">
              {t("account:wifi.none", { identity: wifi.data.identity })}
            </p>
          )}
          <NewPasswordForm
            id="wifi"
            texts={{
              label: t("account:wifi.nameLabel"),
              placeholder: t("account:wifi.namePlaceholder"),
              create: t("account:wifi.create"),
            }}
            name={name}
            onNameChange={setName}
            onCreate={(newName) => create.mutate(newName)}
            pending={create.isPending}
            full={full}
            fullText={t("account:wifi.full", { limit: wifi.data.limit })}
          />
        </>
      )}
    </AccountSection>
  );
}
