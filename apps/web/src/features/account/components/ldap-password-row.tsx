import type { LdapPassword, LdapUse } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { formatInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** Which system the bind came through and from which machine: "Nextcloud (10.20.0.5)". */
function useWhere(): (use: LdapUse) => string {
  const { t } = useTranslation("account");
  return (use) => {
    const client = use.client || t("account:ldap.unknownClient");
    return use.address ? `${client} (${use.address})` : client;
  };
}

/** The recent binds, folded under the last one as Wi-Fi's are, so a row stays short on a phone. */
function LdapRecentUses({ uses }: { uses: LdapUse[] }) {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const where = useWhere();
  return (
    <details className="text-muted-foreground" data-testid="ldap-uses">
      <summary className="cursor-pointer rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {t("account:ldap.uses.show", { count: uses.length })}
      </summary>
      <ol className="mt-1 space-y-0.5 border-l border-border pl-3" aria-label={t("account:ldap.uses.label")}>
        {uses.map((use) => (
          <li key={`${use.usedAt}-${use.client}-${use.address}`} className="break-words">
            <time dateTime={use.usedAt}>{formatInstant(use.usedAt, language)}</time>
            {" · "}
            {where(use)}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** One application password: its name, when it was made and last used, and revoking it. */
export function LdapPasswordRow({
  password,
  onRevoke,
  revoking,
}: {
  password: LdapPassword;
  onRevoke: () => void;
  revoking: boolean;
}) {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const where = useWhere();
  const lastUse = password.uses[0];
  const lastUsed = lastUse
    ? t("account:ldap.lastUsed", { when: formatInstant(lastUse.usedAt, language), where: where(lastUse) })
    : password.lastUsedAt
      ? t("account:ldap.lastUsedAt", { when: formatInstant(password.lastUsedAt, language) })
      : t("account:ldap.neverUsed");
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="ldap-password">
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <p className="font-medium break-words text-foreground" data-testid="ldap-password-name">
          {password.name}
        </p>
        {password.clientTitle ? (
          <p className="text-muted-foreground" data-testid="ldap-password-client">
            {t("account:ldap.onlyThrough", { client: password.clientTitle })}
          </p>
        ) : null}
        <p className="text-muted-foreground">
          {t("account:ldap.created", { when: formatInstant(password.createdAt, language) })}
          {" · "}
          {lastUsed}
        </p>
        {password.uses.length > 1 ? <LdapRecentUses uses={password.uses} /> : null}
      </div>
      <div className="flex shrink-0 self-start">
        <ConfirmButton
          loading={revoking}
          question={t("account:ldap.confirmRevoke.question", { name: password.name })}
          consequence={t("account:ldap.confirmRevoke.consequence")}
          confirmLabel={t("account:ldap.revoke")}
          onConfirm={onRevoke}
        >
          {t("account:ldap.revoke")}
          <span className="sr-only">: {password.name}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}
