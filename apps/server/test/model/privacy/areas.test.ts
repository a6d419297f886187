import { existsSync, readdirSync, readFileSync } from "node:fs";
import { personalDataSectionKeys } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { tableOwners } from "../../../../../scripts/dependencies/table-owners.ts";
import { personDataAreas } from "../../../src/model/privacy/areas.ts";
import { personDataLabels } from "../../../src/model/privacy/export.ts";

const model = new URL("../../../src/model/", import.meta.url);
const schemas = new URL("../../../src/platform/db/", import.meta.url);

/** Rows naming a person that no area's record has to reach, and why (each reason is the place that does). */
const keptApart: Readonly<Record<string, string>> = {
  audit_events: "erasure strips them after every area (model/privacy/erase.ts); the download's securityActivity",
  person_affiliations: "a view over the people's records and the guests, no rows of its own",
};

/** The tables with a `user_id` column, read from the schema's types (platform/db/*schema*.ts): no database needed. */
function tablesNamingAPerson(): string[] {
  const sources = readdirSync(schemas)
    .filter((file) => /schema.*\.ts$/.test(file))
    .map((file) => readFileSync(new URL(file, schemas), "utf8"))
    .join("\n");
  const naming = new Set<string>();
  const interfaces = [...sources.matchAll(/interface (\w+)(?: extends ([\w, <>"|]+))? \{([\s\S]*?)\n\}/g)];
  for (const [, name = "", , body = ""] of interfaces) if (/^\s+user_id\??:/m.test(body)) naming.add(name);
  // A table whose type extends one naming a person (the records extend RecordColumns) names one too.
  for (const [, name = "", parents = ""] of interfaces)
    if (parents.split(/[,\s<>]+/).some((parent) => naming.has(parent))) naming.add(name);
  return [...sources.matchAll(/^\s+(\w+): (\w+);$/gm)]
    .filter(([, , type = ""]) => naming.has(type))
    .map(([, table = ""]) => table);
}

describe("the person-data areas erasure, the download and the clean-up visit (issue 74)", () => {
  it("lists every model area that has a person-data.ts, once, by its folder's name", () => {
    const withPersonData = readdirSync(model, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/person-data.ts`, model)))
      .map((entry) => entry.name)
      .sort();
    expect(personDataAreas.map((area) => area.area).sort()).toEqual(withPersonData);
  });

  it("every area owning a table that names a person erases or exports it through its record", () => {
    const tables = tablesNamingAPerson();
    // The reading itself works: tables of the first migration and of the latest areas are among them.
    expect(tables).toEqual(expect.arrayContaining(["sessions", "student_records", "ldap_passwords", "guests"]));
    const withRecord = new Set(
      personDataAreas.filter((area) => area.erase || area.exportOf).map((area) => `model/${area.area}`),
    );
    const unreached = tables.filter((table) => !keptApart[table] && !withRecord.has(tableOwners[table] ?? "none"));
    expect(unreached, "add a person-data.ts (erase, exportOf) to the owner and a line in areas.ts").toEqual([]);
    expect(Object.keys(keptApart).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("labels every section of the download in both languages, each label given by one area", () => {
    const labels = personDataLabels({ securityActivity: { uk: "Дії", en: "Activity" } });
    for (const key of personalDataSectionKeys)
      expect(labels[key], key).toEqual({ uk: expect.any(String), en: expect.any(String) });
    const labelled = personDataAreas.flatMap((area) => Object.keys(area.labels ?? {}));
    expect(new Set(labelled).size).toBe(labelled.length);
  });
});
