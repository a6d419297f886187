import type { PersonDetail, PersonRecord } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { Section } from "@/features/console-shell/index.ts";
import { useLanguage } from "@/lib/use-language.ts";

function unitName(record: PersonRecord, language: string): string | null {
  if (!record.unit) return null;
  return `${language === "en" && record.unit.nameEn ? record.unit.nameEn : record.unit.nameUk} (${record.unit.code})`;
}

/**
 * The person's student records and employee positions, as the HR and student systems (or an import)
 * wrote them: the unit, the status, which one is primary and where it came from.
 */
export function PersonRecords({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  return (
    <Section title={t("admin:person.records.title")} testId="person-records">
      {person.records.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("admin:person.records.none")}</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {person.records.map((record) => (
            // One id can hold positions in two units: the unit and title keep the keys apart.
            <li
              key={`${record.kind}-${record.id}-${record.unit?.code ?? ""}-${record.title}`}
              className="flex flex-col gap-0.5"
              data-testid="person-record"
            >
              <span className="font-medium">
                {t(`admin:person.records.kind.${record.kind}`, { id: record.id })}
                {record.primary ? ` · ${t("admin:person.records.primary")}` : ""}
              </span>
              <span className="text-muted-foreground">
                {[
                  unitName(record, language) ?? t("admin:person.records.noUnit"),
                  record.title || null,
                  t(`admin:person.records.status.${record.status}`, { defaultValue: record.status }),
                  t(`admin:person.records.source.${record.source}`, {
                    defaultValue: t("admin:person.records.source.other", { source: record.source }),
                  }),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
