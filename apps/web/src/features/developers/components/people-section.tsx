import { type DeveloperApplication, developerTesterLimit } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { addPerson, removePerson, useDeveloperChange } from "../api/developers.ts";
import { DeveloperSection } from "./section.tsx";

/** Testers (up to 25) or co-owners, named by exact username or e-mail address. */
export function PeopleSection({
  application,
  group: role,
}: {
  application: DeveloperApplication;
  group: "testers" | "owners";
}) {
  const { t } = useTranslation("developers");
  const id = useId();
  const [person, setPerson] = useState("");
  const add = useDeveloperChange(
    (named: string) => addPerson(application.id, role, named),
    () => setPerson(""),
  );
  const remove = useDeveloperChange((userId: string) => removePerson(application.id, role, userId));
  const people = role === "testers" ? application.testers : application.owners;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (person.trim()) add.mutate(person.trim());
  };
  return (
    <DeveloperSection id={role} title={t(`${role}.title`, { count: people.length, limit: developerTesterLimit })}>
      <p className="text-sm text-muted-foreground">{t(`${role}.description`)}</p>
      {people.length > 0 ? (
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label={t(`${role}.listLabel`)}>
          {people.map((each) => (
            <li key={each.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="font-medium text-foreground">
                {each.username}
                {each.you ? <span className="ml-2 text-sm text-muted-foreground">{t("people.you")}</span> : null}
              </span>
              <Button variant="outline" size="sm" onClick={() => remove.mutate(each.id)} disabled={remove.isPending}>
                {t("people.remove")}
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
        <Button type="submit" variant="outline" loading={add.isPending} data-testid={`${role}-add`}>
          {t(`${role}.add`)}
        </Button>
      </form>
    </DeveloperSection>
  );
}
