import {
  type LdapClientSubtree,
  ldapClientSubtrees,
  ldapDirectoryAttributes,
  type RegisteredLdapClient,
} from "@kpi-id/contracts";
import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { nativeSelectClass } from "@/components/ui/native-select.ts";
import { Section, useApplications } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useRegisterLdapClient } from "../api/ldap-api.ts";

/** What most clients need (a login: the name, the display name, the groups). */
const firstAttributes = ["uid", "cn", "mail", "memberOf"];

const listOf = (typed: string) =>
  typed
    .split(/[\s,]+/)
    .map((each) => each.trim())
    .filter(Boolean);

/** The new client's service account: its DN and secret, shown once. */
function Registered({ registered, onDone }: { registered: RegisteredLdapClient; onDone: () => void }) {
  const { t } = useTranslation("admin-service");
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-primary/40 p-3 text-sm" data-testid="ldap-registered">
      <p className="font-medium">{t("admin-service:ldap.shownOnce", { name: registered.name })}</p>
      <dl className="grid grid-cols-1 sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt className="text-muted-foreground">{t("admin-service:ldap.bindDn")}</dt>
        <dd className="mb-1 break-all font-mono sm:mb-0">{registered.bindDn}</dd>
        <dt className="text-muted-foreground">{t("admin-service:ldap.secret")}</dt>
        <dd className="break-all font-mono" data-testid="ldap-registered-secret">
          {registered.secret}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={registered.secret} copiedMessage={t("admin-service:ldap.copied")}>
          {t("admin-service:ldap.copy")}
        </CopyButton>
        <Button variant="outline" onClick={onDone}>
          {t("admin-service:ldap.done")}
        </Button>
      </div>
    </div>
  );
}

/** Registers a client as `ldap client add` does: its name, title, what it reads, whom it sees, where it binds from. */
export function LdapClientForm() {
  const { t } = useTranslation("admin-service");
  const describeError = useErrorMessage();
  const applications = useApplications();
  const register = useRegisterLdapClient();
  const [name, setName] = useState("");
  const [title, setTitle] = useState("");
  const [subtree, setSubtree] = useState<LdapClientSubtree>("people");
  const [applicationId, setApplicationId] = useState("");
  const [attributes, setAttributes] = useState<string[]>(firstAttributes);
  const [addresses, setAddresses] = useState("");
  const [kpiPasswordAllowed, setKpiPasswordAllowed] = useState(false);
  const [registered, setRegistered] = useState<RegisteredLdapClient | null>(null);
  const toggle = (attribute: string, on: boolean) =>
    setAttributes((chosen) => (on ? [...chosen, attribute] : chosen.filter((each) => each !== attribute)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      {
        name: name.trim(),
        title: title.trim(),
        subtree,
        applicationId: applicationId || null,
        attributes: ldapDirectoryAttributes.filter((each) => attributes.includes(each)),
        addresses: listOf(addresses),
        kpiPasswordAllowed,
      },
      {
        onSuccess: (answer) => {
          setRegistered(answer);
          setName("");
          setTitle("");
          setAddresses("");
          setKpiPasswordAllowed(false);
        },
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      },
    );
  };
  return (
    <Section title={t("admin-service:ldap.register")} testId="ldap-register">
      {registered ? <Registered registered={registered} onDone={() => setRegistered(null)} /> : null}
      <form className="flex flex-col gap-3" onSubmit={submit} data-testid="ldap-register-form">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="ldap-name">{t("admin-service:ldap.name")}</Label>
            <Input
              id="ldap-name"
              value={name}
              maxLength={63}
              pattern="[a-z0-9][a-z0-9\-]*"
              placeholder="nextcloud"
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="ldap-title">{t("admin-service:ldap.clientTitle")}</Label>
            <Input id="ldap-title" value={title} maxLength={120} onChange={(event) => setTitle(event.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="ldap-subtree">{t("admin-service:ldap.subtree")}</Label>
            <select
              id="ldap-subtree"
              className={nativeSelectClass}
              value={subtree}
              onChange={(event) => setSubtree(event.target.value as LdapClientSubtree)}
            >
              {ldapClientSubtrees.map((each) => (
                <option key={each} value={each}>
                  {t(`admin-service:ldap.subtrees.${each}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="ldap-application">{t("admin-service:ldap.people")}</Label>
            <select
              id="ldap-application"
              className={nativeSelectClass}
              value={applicationId}
              onChange={(event) => setApplicationId(event.target.value)}
            >
              <option value="">{t("admin-service:ldap.everyone")}</option>
              {applications.data?.map((application) => (
                <option key={application.id} value={application.id}>
                  {application.title}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-sm font-medium">{t("admin-service:ldap.attributes")}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {ldapDirectoryAttributes.map((attribute) => (
              <label key={attribute} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={attributes.includes(attribute)}
                  onChange={(event) => toggle(attribute, event.target.checked)}
                />
                <code>{attribute}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="ldap-addresses">{t("admin-service:ldap.addresses")}</Label>
          <Input
            id="ldap-addresses"
            value={addresses}
            placeholder="10.20.0.5, 10.20.0.6"
            aria-describedby="ldap-addresses-help"
            onChange={(event) => setAddresses(event.target.value)}
          />
          <p id="ldap-addresses-help" className="text-xs text-muted-foreground">
            {t("admin-service:ldap.addressesHelp")}
          </p>
        </div>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-1"
            checked={kpiPasswordAllowed}
            onChange={(event) => setKpiPasswordAllowed(event.target.checked)}
            data-testid="ldap-kpi-password"
          />
          <span>{t("admin-service:ldap.allowKpiPassword")}</span>
        </label>
        <div>
          <Button
            type="submit"
            loading={register.isPending}
            disabled={name.trim() === "" || title.trim() === "" || attributes.length === 0}
            icon={<Plus aria-hidden />}
          >
            {t("admin-service:ldap.registerButton")}
          </Button>
        </div>
      </form>
    </Section>
  );
}
