import {
  type PersonalData,
  type PersonalDataSections,
  personalDataSectionKeys,
  personalProfileFields,
} from "@kpi-id/contracts";
import type { ExportContext, SectionLabel } from "../../platform/db/person-data.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { personDataAreas } from "./areas.ts";

type Part = PersonalDataSections[keyof PersonalDataSections];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The sections every area keeps about the person (areas.ts), in the file's order. A section several areas fill
 * (the sign-in methods) is the union of their fields; a list two areas fill is both lists. Fails when a section is
 * missing, so an area dropped from the list cannot silently shrink the download.
 */
export async function personDataSections(
  db: Db,
  person: User,
  context: ExportContext,
  own: Partial<PersonalDataSections> = {},
): Promise<PersonalDataSections> {
  const parts = new Map<string, Part>(Object.entries(own) as [string, Part][]);
  for (const area of personDataAreas) {
    const share = (await area.exportOf?.(db, person, context)) ?? {};
    for (const [key, value] of Object.entries(share) as [string, Part][]) {
      const before = parts.get(key);
      if (Array.isArray(before) && Array.isArray(value)) parts.set(key, [...before, ...value] as Part);
      else if (isPlainObject(before) && isPlainObject(value)) parts.set(key, { ...before, ...value } as Part);
      else parts.set(key, value);
    }
  }
  const missing = personalDataSectionKeys.filter((key) => !parts.has(key));
  if (missing.length > 0) throw new Error(`no area fills the download's ${missing.join(", ")}`);
  return Object.fromEntries(personalDataSectionKeys.map((key) => [key, parts.get(key)])) as PersonalDataSections;
}

/**
 * The file's labels, each section's (the profile's fields after the profile's) in the file's order: the areas'
 * labels with the caller's own. Fails on a section without a label, so a new one cannot arrive unexplained.
 */
export function personDataLabels(own: Readonly<Record<string, SectionLabel>> = {}): PersonalData["labels"] {
  const known = new Map<string, SectionLabel>(Object.entries(own));
  for (const area of personDataAreas)
    for (const [key, label] of Object.entries(area.labels ?? {})) known.set(key, label);
  const keys = personalDataSectionKeys.flatMap((key) => (key === "profile" ? [key, ...personalProfileFields] : [key]));
  const unlabelled = keys.filter((key) => !known.has(key));
  if (unlabelled.length > 0) throw new Error(`the download's ${unlabelled.join(", ")} has no label`);
  return Object.fromEntries(keys.map((key) => [key, { ...(known.get(key) as SectionLabel) }]));
}
