import type { PersonDetail } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Section, useEventLabel } from "@/features/console-shell/index.ts";
import { formatEventInstant } from "@/lib/format.ts";
import { useLanguage } from "@/lib/use-language.ts";

/** A person's recent sign-ins and events, in the audit log's words, or a sentence when there are none. */
export function PersonHistory({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const { t: tRecords } = useTranslation("admin-records");
  const language = useLanguage();
  const eventLabel = useEventLabel();
  return (
    <Section title={t("admin:person.history")} testId="person-history">
      {person.signIns.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="person-history-empty">
          {tRecords("admin-records:history.none")}
        </p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {person.signIns.map((event, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list; an import or SCIM can write two rows of one kind in the same millisecond, so the place keeps keys apart.
            <li key={`${event.occurredAt}-${event.type}-${event.result}-${index}`}>
              {formatEventInstant(event.occurredAt, language)} · {eventLabel(event.type)} ·{" "}
              <span className={event.result === "failure" ? "text-destructive-strong" : undefined}>
                {tRecords(`admin-records:results.${event.result}`)}
              </span>
              {event.method ? ` · ${t(`admin:methods.${event.method}`, { defaultValue: event.method })}` : ""}
              {event.address ? ` · ${event.address}` : ""}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
