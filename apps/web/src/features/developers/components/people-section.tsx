import { type DeveloperApplication, developerTesterLimit } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { StatusLine } from "@/components/ui/live-status.tsx";
import { useLanguage } from "@/lib/use-language.ts";
import { invitePerson, removePerson, useDeveloperChange, withdrawInvitation } from "../api/developers.ts";
import { formatDay } from "./format-day.ts";
import { DeveloperSection } from "./section.tsx";

/**
 * Testers (up to 25) or co-owners: those who accepted, the invitations waiting (withdrawable), and a form
 * to invite one more by exact username or e-mail address. The page never says whether a name has an account.
 */
export function PeopleSection({
  application,
  group: role,
}: {
  application: DeveloperApplication;
  group: "testers" | "owners";
}) {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const id = useId();
  const [person, setPerson] = useState("");
  const [invited, setInvited] = useState("");
  const invite = useDeveloperChange(
    (named: string) => invitePerson(application.id, role, named),
    () => {
      setInvited(person.trim());
      setPerson("");
    },
  );
  const remove = useDeveloperChange((username: string) => removePerson(application.id, role, username));
  const withdraw = useDeveloperChange((invitation: string) => withdrawInvitation(application.id, invitation));
  const people = role === "testers" ? application.testers : application.owners;
  const waiting = application.invitations.filter((each) => `${each.role}s` === role);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setInvited("");
    if (person.trim()) invite.mutate(person.trim());
  };
  return (
    <DeveloperSection id={role} title={t(`${role}.title`, { count: people.length, limit: developerTesterLimit })}>
      <p className="text-sm text-muted-foreground">{t(`${role}.description`)}</p>
      {people.length > 0 ? (
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label={t(`${role}.listLabel`)}>
          {people.map((each) => (
            <li key={each.username} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="font-medium break-all text-foreground">
                {each.username}
                {each.you ? <span className="ml-2 text-sm text-muted-foreground">{t("people.you")}</span> : null}
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => remove.mutate(each.username)}
                disabled={remove.isPending}
                data-testid={`${role}-remove`}
              >
                {each.you ? t("people.leave") : t("people.remove")}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {waiting.length > 0 ? (
        <ul
          className="divide-y divide-border rounded-lg border border-dashed border-border"
          aria-label={t("people.pendingLabel")}
          data-testid={`${role}-pending`}
        >
          {waiting.map((each) => (
            <li key={each.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="min-w-0 space-y-0.5">
                <span className="block font-medium break-all text-foreground">{each.named}</span>
                <span className="block text-sm text-muted-foreground">
                  {t("people.pending", { date: formatDay(each.expiresAt, language) })}
                </span>
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => withdraw.mutate(each.id)}
                disabled={withdraw.isPending}
                data-testid={`${role}-withdraw`}
              >
                {t("people.withdraw")}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit}>
        <div className="flex-1 space-y-1.5">
          <Label htmlFor={`${id}-person`}>{t("people.named")}</Label>
          <Input
            id={`${id}-person`}
            value={person}
            onChange={(event) => setPerson(event.target.value)}
            autoComplete="off"
            data-testid={`${role}-input`}
          />
        </div>
        <Button type="submit" variant="outline" loading={invite.isPending} data-testid={`${role}-add`}>
          {t(`${role}.add`)}
        </Button>
      </form>
      {invited ? (
        // Seen at once and said by a status that enters empty (StatusLine): it comes in with the first invitation.
        <StatusLine
          words={t("people.invited", { person: invited })}
          className="text-sm text-muted-foreground"
          testId={`${role}-invited`}
        />
      ) : null}
    </DeveloperSection>
  );
}
