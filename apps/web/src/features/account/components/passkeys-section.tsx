import type { Passkey } from "@kpi-id/contracts";
import { KeyRound, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { formatInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useAccountChange } from "../api/account-changes.ts";
import { addPasskey, removePasskey, usePasskeys } from "../api/passkeys.ts";
import { AccountList, AccountSection, Badge } from "./account-section.tsx";
import type { AskAgain } from "./use-reauth.tsx";

function PasskeyRow({ passkey, onRemove, removing }: { passkey: Passkey; onRemove: () => void; removing: boolean }) {
  const { t } = useTranslation("account");
  const language = useLanguage();
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="passkey">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium break-words text-foreground">
          {passkey.name}
          {passkey.synced ? <Badge>{t("account:passkeys.synced")}</Badge> : null}
        </p>
        <p className="text-muted-foreground" data-testid="passkey-authenticator">
          {passkey.authenticator ?? t("account:passkeys.unknownAuthenticator")}
        </p>
        <p className="text-muted-foreground">
          {t("account:passkeys.added", { when: formatInstant(passkey.createdAt, language) })}
          {" · "}
          {passkey.lastUsedAt
            ? t("account:passkeys.lastUsed", { when: formatInstant(passkey.lastUsedAt, language) })
            : t("account:passkeys.neverUsed")}
        </p>
      </div>
      <ConfirmButton
        className="self-start sm:self-center"
        loading={removing}
        question={t("account:passkeys.confirmRemove.question", { name: passkey.name })}
        consequence={t("account:passkeys.confirmRemove.consequence")}
        confirmLabel={t("account:passkeys.remove")}
        onConfirm={onRemove}
      >
        {t("account:passkeys.remove")}
        <span className="sr-only">: {passkey.name}</span>
      </ConfirmButton>
    </li>
  );
}

/** Passkeys: add one (named by the person), see where each is from and when it was last used, remove one. */
export function PasskeysSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const passkeys = usePasskeys();
  const [name, setName] = useState("");
  const add = useAccountChange(async (newName: string) => {
    await addPasskey(newName);
    setName("");
  }, askAgain);
  const remove = useAccountChange(removePasskey, askAgain);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name);
  };
  return (
    <AccountSection
      id="passkeys"
      icon={KeyRound}
      title={t("account:passkeys.title")}
      description={t("account:passkeys.description")}
    >
      {!passkeys.data ? (
        <Skeleton className="h-16 w-full" />
      ) : passkeys.data.length > 0 ? (
        <AccountList label={t("account:passkeys.title")}>
          {passkeys.data.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              onRemove={() => remove.mutate(passkey.id)}
              removing={remove.isPending && remove.variables === passkey.id}
            />
          ))}
        </AccountList>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="passkeys-none">
          {t("account:passkeys.none")}
        </p>
      )}
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit} data-testid="passkey-add">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor="passkey-name">{t("account:passkeys.nameLabel")}</Label>
          <Input
            id="passkey-name"
            maxLength={64}
            placeholder={t("account:passkeys.namePlaceholder")}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={name.trim().length === 0} loading={add.isPending} icon={<Plus aria-hidden />}>
          {t("account:passkeys.add")}
        </Button>
      </form>
    </AccountSection>
  );
}
