import { describe, expect, it } from "vitest";
import { listMigrations } from "../../../src/platform/db/migrate.ts";

/**
 * Rolling upgrades run the previous release and this one against one database
 * (docs/operations.md, "Upgrading"). So a migration after the previous
 * release's last one may only expand: add tables, nullable columns or columns
 * with a default, indexes, wider checks. Removing or renaming what the previous
 * release reads (the contract step) waits for the release after the one that
 * stopped reading it, and is then listed here with its reason.
 */
const previousReleaseLastMigration = 310; // 0.2.0's last: 0310_cache_notifications

/** Contractions a release note announced (CHANGELOG's upgrade notes), by migration file. */
const announcedContractions: Record<string, string> = {};

const contracting: [RegExp, string][] = [
  [/\bdrop\s+table\b/i, "drops a table"],
  [/\bdrop\s+column\b/i, "drops a column"],
  [/\brename\b/i, "renames a table or column"],
  [/\balter\s+column\s+\w+\s+(set\s+data\s+)?type\b/i, "changes a column's type"],
  [/\bset\s+not\s+null\b/i, "makes a column required"],
  [
    /\badd\s+column\s+(if\s+not\s+exists\s+)?\w+\s+[^,;]*\bnot\s+null\b(?![^,;]*\bdefault\b)/i,
    "adds a required column without a default",
  ],
];

/** Statements without their comments. */
function statements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, "")
    .split(";")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

describe("migrations written expand/contract", () => {
  it("after the previous release, only expand what the previous release reads", () => {
    const found: string[] = [];
    for (const migration of listMigrations()) {
      const file = `${String(migration.version).padStart(4, "0")}_${migration.name}`;
      if (migration.version <= previousReleaseLastMigration || announcedContractions[file]) continue;
      for (const statement of statements(migration.sql))
        for (const [pattern, what] of contracting)
          if (pattern.test(statement)) found.push(`${file} ${what}: ${statement.slice(0, 120)}`);
    }
    expect(found).toEqual([]);
  });

  it("catches each contraction it looks for", () => {
    const samples = [
      "alter table users drop column email",
      "drop table tickets",
      "alter table users rename column email to mail",
      "alter table users alter column status type text",
      "alter table users alter column email set not null",
      "alter table users add column region text not null",
    ];
    for (const sample of samples)
      expect(
        contracting.some(([pattern]) => pattern.test(sample)),
        sample,
      ).toBe(true);
    const expanding = [
      "alter table users add column region text not null default 'kyiv'",
      "alter table users add column region text",
      "create index users_region_idx on users (region)",
      "alter table sessions drop constraint sessions_auth_method_check",
    ];
    for (const sample of expanding)
      expect(
        contracting.some(([pattern]) => pattern.test(sample)),
        sample,
      ).toBe(false);
  });
});
