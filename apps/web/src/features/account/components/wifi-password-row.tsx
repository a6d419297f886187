import type { WifiPassword } from "@kpi-id/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { AccessPoint, WifiRecentUses, type WifiUsesWords } from "@/components/wifi-uses.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { formatInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { accountQueryKey } from "../api/account-queries.ts";
import { renameWifiPassword } from "../api/wifi.ts";

/**
 * Renaming in place: the name's field replaces the name, the refusal is said under the field (not in a toast
 * far from it), and focus goes back to the rename button when done.
 */
function RenameForm({ password, onDone }: { password: WifiPassword; onDone: () => void }) {
  const { t } = useTranslation("account");
  const describeError = useErrorMessage();
  const queryClient = useQueryClient();
  const [name, setName] = useState(password.name);
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  // The person just asked to rename this password: the field is where they type next.
  useEffect(() => field.current?.focus(), []);
  const errorId = `${fieldId}-error`;
  const rename = useMutation({
    mutationFn: (newName: string) => renameWifiPassword(password.id, newName),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountQueryKey });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === password.name) onDone();
    else rename.mutate(name);
  };
  const error = rename.error ? describeError(rename.error, "account:errors.generic").message : null;
  return (
    <form className="flex flex-col gap-2" onSubmit={submit} data-testid="wifi-rename">
      <Label htmlFor={fieldId}>{t("account:wifi.rename.label", { name: password.name })}</Label>
      <Input
        id={fieldId}
        ref={field}
        maxLength={60}
        value={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
        }}
      />
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive-strong">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={name.trim().length === 0} loading={rename.isPending}>
          {t("account:wifi.rename.save")}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          {t("account:wifi.rename.cancel")}
        </Button>
      </div>
    </form>
  );
}

/** One device's network password: its name (renamed in place), identity, uses, and revoking it. */
export function WifiPasswordRow({
  password,
  onRevoke,
  revoking,
}: {
  password: WifiPassword;
  onRevoke: () => void;
  revoking: boolean;
}) {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const lastUse = password.uses[0];
  const words: WifiUsesWords = {
    show: t("account:wifi.uses.show", { count: password.uses.length }),
    label: t("account:wifi.uses.label"),
    unnamed: t("account:wifi.unknownAccessPoint"),
  };
  const doneRenaming = () => {
    setRenaming(false);
    // After the form is gone: the button it replaced is back in the page.
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="wifi-password">
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        {renaming ? (
          <RenameForm password={password} onDone={doneRenaming} />
        ) : (
          <p className="font-medium break-words text-foreground" data-testid="wifi-password-name">
            {password.name}
          </p>
        )}
        <p className="break-all font-mono text-xs text-muted-foreground">{password.identity}</p>
        <p className="text-muted-foreground">
          {t("account:wifi.created", { when: formatInstant(password.createdAt, language) })}
          {" · "}
          {lastUse ? (
            <Trans
              t={t}
              i18nKey="account:wifi.lastUsed"
              values={{ when: formatInstant(lastUse.usedAt, language) }}
              components={{ where: <AccessPoint use={lastUse} unnamed={words.unnamed} /> }}
            />
          ) : (
            t("account:wifi.neverUsed")
          )}
        </p>
        {password.sessions.map((session) => (
          <p key={`${session.controller} ${session.since}`} className="text-foreground" data-testid="wifi-session">
            {t("account:wifi.connectedNow", {
              controller: session.controller,
              when: formatInstant(session.since, language),
            })}
          </p>
        ))}
        {password.uses.length > 1 ? <WifiRecentUses uses={password.uses} words={words} /> : null}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 self-start">
        {renaming ? null : (
          <Button
            ref={renameButton}
            variant="outline"
            size="sm"
            icon={<Pencil aria-hidden />}
            onClick={() => setRenaming(true)}
          >
            {t("account:wifi.rename.open")}
            <span className="sr-only">: {password.name}</span>
          </Button>
        )}
        <ConfirmButton
          loading={revoking}
          question={t("account:wifi.confirmRevoke.question", { name: password.name })}
          consequence={t("account:wifi.confirmRevoke.consequence")}
          confirmLabel={t("account:wifi.revoke")}
          onConfirm={onRevoke}
        >
          {t("account:wifi.revoke")}
          <span className="sr-only">: {password.name}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}
