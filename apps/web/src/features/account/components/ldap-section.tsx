import type { CreatedLdapPassword, LdapPasswords } from "@kpi-id/contracts";
import { Server } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Label } from "@/components/ui/label.tsx";
import { nativeSelectClass } from "@/components/ui/native-select.ts";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAccountChange } from "../api/account-changes.ts";
import { createLdapPassword, revokeLdapPassword, useLdapPasswords } from "../api/ldap.ts";
import { AccountList, AccountSection } from "./account-section.tsx";
import { LdapPasswordRow } from "./ldap-password-row.tsx";
import { NewPasswordForm } from "./new-password-form.tsx";
import { ShownOncePanel } from "./shown-once-panel.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/** A DN that wraps only between its parts ("uid=…,ou=people,…"), never inside a name. */
function BreakAfterCommas({ dn }: { dn: string }) {
  return dn.split(",").map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a DN's parts never move, and two may be equal (dc=x,dc=x)
    <span key={index}>
      {index > 0 ? "," : null}
      {index > 0 ? <wbr /> : null}
      {part}
    </span>
  ));
}

/** The new password, shown once, with the name and DN the system asks for beside it. */
function NewLdapPassword({
  created,
  ldap,
  onDone,
}: {
  created: CreatedLdapPassword;
  ldap: LdapPasswords;
  onDone: () => void;
}) {
  const { t } = useTranslation("account");
  return (
    <ShownOncePanel
      testId="ldap-new"
      note={t("account:ldap.shownOnce", { name: created.name })}
      secret={created.password}
      copyLabel={t("account:ldap.copy")}
      copiedMessage={t("account:ldap.copied")}
      doneLabel={t("account:ldap.done")}
      onDone={onDone}
    >
      {/* Label above value on a phone: the DN and the password then get the whole width instead of wrapping mid-word. */}
      <dl className="grid grid-cols-1 sm:grid-cols-[auto_1fr] sm:gap-x-3 sm:gap-y-1">
        <dt className="text-muted-foreground">{t("account:ldap.username")}</dt>
        <dd className="mb-1 break-words font-mono sm:mb-0">{ldap.username}</dd>
        <dt className="text-muted-foreground">{t("account:ldap.bindDn")}</dt>
        <dd className="mb-1 break-words font-mono sm:mb-0">
          <BreakAfterCommas dn={ldap.bindDn} />
        </dd>
        <dt className="text-muted-foreground">{t("account:ldap.password")}</dt>
        <dd className="break-words font-mono" data-testid="ldap-new-password">
          {created.password}
        </dd>
      </dl>
    </ShownOncePanel>
  );
}

/** Which registered system a new password works through: any (the default) or only one. */
function ClientChoice({
  clients,
  value,
  onChange,
}: {
  clients: LdapPasswords["clients"];
  value: string;
  onChange: (clientId: string) => void;
}) {
  const { t } = useTranslation("account");
  return (
    <div className="flex min-w-0 flex-col gap-1.5 sm:max-w-56">
      <Label htmlFor="ldap-client">{t("account:ldap.clientLabel")}</Label>
      <select
        id="ldap-client"
        className={nativeSelectClass}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid="ldap-client"
      >
        <option value="">{t("account:ldap.anyClient")}</option>
        {clients.map((client) => (
          <option key={client.id} value={client.id}>
            {client.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Application passwords for systems that check people by LDAP, never the KPI ID password (docs/ldap.md). */
export function LdapSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const ldap = useLdapPasswords();
  const [name, setName] = useState("");
  const [clientId, setClientId] = useState("");
  const [created, setCreated] = useState<CreatedLdapPassword | null>(null);
  const create = useAccountChange(async (newName: string) => {
    setCreated(await createLdapPassword({ name: newName, clientId: clientId || null }));
    setName("");
    setClientId("");
  }, askAgain);
  const revoke = useAccountChange(revokeLdapPassword, askAgain);
  if (ldap.data === null) return null;
  const full = ldap.data ? ldap.data.passwords.length >= ldap.data.limit : false;
  return (
    <AccountSection id="ldap" icon={Server} title={t("account:ldap.title")} description={t("account:ldap.description")}>
      {!ldap.data ? (
        <Skeleton className="h-16 w-full" />
      ) : (
        <>
          {created ? <NewLdapPassword created={created} ldap={ldap.data} onDone={() => setCreated(null)} /> : null}
          {ldap.data.passwords.length > 0 ? (
            <AccountList label={t("account:ldap.title")}>
              {ldap.data.passwords.map((password) => (
                <LdapPasswordRow
                  key={password.id}
                  password={password}
                  onRevoke={() => revoke.mutate(password.id)}
                  revoking={revoke.isPending && revoke.variables === password.id}
                />
              ))}
            </AccountList>
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="ldap-none">
              {t("account:ldap.none", { username: ldap.data.username })}
            </p>
          )}
          <NewPasswordForm
            id="ldap"
            texts={{
              label: t("account:ldap.nameLabel"),
              placeholder: t("account:ldap.namePlaceholder"),
              create: t("account:ldap.create"),
            }}
            name={name}
            onNameChange={setName}
            onCreate={(newName) => create.mutate(newName)}
            pending={create.isPending}
            full={full}
            fullText={t("account:ldap.full", { limit: ldap.data.limit })}
          >
            {ldap.data.clients.length > 0 ? (
              <ClientChoice clients={ldap.data.clients} value={clientId} onChange={setClientId} />
            ) : null}
          </NewPasswordForm>
        </>
      )}
    </AccountSection>
  );
}
