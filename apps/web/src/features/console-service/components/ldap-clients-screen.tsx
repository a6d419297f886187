import type { AdminLdapClient } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Facts, Section, useCan, useServiceWords } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useLdapClients, useRemoveLdapClient } from "../api/ldap-api.ts";
import { LdapClientForm } from "./ldap-client-form.tsx";

/** A client's latest refused binds: when, why (in words), from which address. */
function ClientFailures({ failures }: { failures: AdminLdapClient["failures"] }) {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  if (failures.length === 0) return null;
  return (
    <details className="text-sm" data-testid="ldap-client-failures">
      <summary className="cursor-pointer text-primary underline-offset-4 hover:underline">
        {t("admin-service:ldap.failures.show", { count: failures.length })}
      </summary>
      <ol className="mt-1 space-y-0.5 border-l border-border pl-3">
        {failures.map((failure) => (
          <li key={`${failure.at}-${failure.reason}-${failure.address}`} className="break-words">
            <time dateTime={failure.at}>{words.date(failure.at)}</time>
            {" · "}
            {t(`admin-service:ldap.reasons.${failure.reason}`)}
            {failure.address ? ` · ${failure.address}` : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

function ClientCard({ client }: { client: AdminLdapClient }) {
  const { t } = useTranslation("admin-service");
  const describeError = useErrorMessage();
  const words = useServiceWords();
  const canManage = useCan("ldap.manage");
  const remove = useRemoveLdapClient();
  const onRemove = () =>
    remove.mutate(client.name, {
      onSuccess: () => notify("success", t("admin-service:ldap.removed", { title: client.title })),
      onError: (error) => notify("error", describeError(error, "admin:failed").message),
    });
  const everyone = t("admin-service:ldap.everyone");
  return (
    <Section title={client.title} testId="ldap-client">
      <Facts
        rows={[
          [
            t("admin-service:ldap.bindDn"),
            <code key="dn" className="break-all text-xs">
              {client.bindDn}
            </code>,
          ],
          [t("admin-service:ldap.subtree"), t(`admin-service:ldap.subtrees.${client.subtree}`)],
          [t("admin-service:ldap.people"), client.application ? client.application.title : everyone],
          [
            t("admin-service:ldap.attributes"),
            <span key="attributes" className="break-words">
              {client.attributes.join(", ")}
            </span>,
          ],
          [t("admin-service:ldap.addresses"), client.addresses.join(", ") || t("admin-service:ldap.anyAddress")],
          [
            t("admin-service:ldap.kpiPassword"),
            client.kpiPasswordAllowed ? t("admin-service:ldap.kpiPasswordAllowed") : t("admin-service:ldap.no"),
          ],
          [
            t("admin-service:ldap.binds"),
            <span key="binds" data-testid="ldap-client-binds">
              {t("admin-service:ldap.bindCounts", { accepted: client.binds.accepted, refused: client.binds.refused })}
              {client.binds.lastAt
                ? ` · ${t("admin-service:ldap.lastBind", { when: words.date(client.binds.lastAt) })}`
                : null}
            </span>,
          ],
        ]}
      />
      <ClientFailures failures={client.failures} />
      {canManage ? (
        <div>
          <ConfirmButton
            question={t("admin-service:ldap.removeQuestion", { title: client.title })}
            consequence={t("admin-service:ldap.removeConsequence")}
            confirmLabel={t("admin-service:ldap.remove")}
            onConfirm={onRemove}
            loading={remove.isPending}
          >
            {t("admin-service:ldap.remove")}
            <span className="sr-only">: {client.title}</span>
          </ConfirmButton>
        </div>
      ) : null}
    </Section>
  );
}

/** The registered LDAP clients (docs/ldap.md): what each reads, its binds and failures; registered and removed. */
export function LdapClientsScreen() {
  const { t } = useTranslation("admin-service");
  const describeError = useErrorMessage();
  const clients = useLdapClients();
  const canManage = useCan("ldap.manage");
  return (
    <section aria-labelledby="ldap-heading" className="flex flex-col gap-4" data-testid="ldap-clients">
      <h2 id="ldap-heading" className="text-lg font-semibold">
        {t("admin-service:ldap.title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("admin-service:ldap.about")}</p>
      {clients.isError ? (
        <Alert variant="destructive" title={t("admin-service:loadFailed")}>
          {describeError(clients.error, "admin:failed").message}
        </Alert>
      ) : null}
      {clients.data && !clients.data.configured ? (
        <Alert title={t("admin-service:ldap.notConfigured.title")} testId="ldap-not-configured">
          {t("admin-service:ldap.notConfigured.description")}
        </Alert>
      ) : null}
      {clients.isPending ? <p className="text-sm text-muted-foreground">{t("admin:loading")}</p> : null}
      {clients.data?.clients.length === 0 ? (
        <p className="text-sm" data-testid="ldap-clients-none">
          {t("admin-service:ldap.none")}
        </p>
      ) : null}
      {clients.data?.clients.map((client) => (
        <ClientCard key={client.id} client={client} />
      ))}
      {canManage ? <LdapClientForm /> : null}
    </section>
  );
}
