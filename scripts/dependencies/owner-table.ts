// The table of tables and their owners in docs/architecture.md, generated from table-owners.ts: the check fails
// when the two differ, and `node scripts/check-dependencies.ts --write-owner-table` rewrites the doc's copy.
import type { SourceFile, Violation } from "./source-rules.ts";
import { areaSurfaces, ownerNotes, tableOwners } from "./table-owners.ts";

export const ownerTableDoc = "docs/architecture.md";
const begin = "<!-- table-owners:begin (generated from scripts/dependencies/table-owners.ts) -->";
const end = "<!-- table-owners:end -->";

/** What other areas and layers may import of an owner (a platform owner is imported as a whole). */
function surfaceOf(owner: string): string {
  const surface = areaSurfaces[owner];
  return surface === undefined ? "its folder" : surface.map((file) => `\`${file}\``).join(", ");
}

/** The Markdown table: one row per owner, its tables and what they hold. */
export function ownerTable(): string {
  const byOwner = new Map<string, string[]>();
  for (const [table, owner] of Object.entries(tableOwners)) byOwner.set(owner, [...(byOwner.get(owner) ?? []), table]);
  // An area that owns no table (it coordinates others) still names its surface.
  for (const area of Object.keys(areaSurfaces)) if (!byOwner.has(area)) byOwner.set(area, []);
  const rows = [...byOwner].map(
    ([owner, tables]) =>
      `| \`${owner}\` | ${tables.map((table) => `\`${table}\``).join(", ") || "—"} | ${ownerNotes[owner] ?? ""} | ${surfaceOf(owner)} |`,
  );
  return [begin, "| Owner | Tables | What they hold | Surface |", "|---|---|---|---|", ...rows, end].join("\n");
}

/** The doc with its table replaced by the generated one (the markers must be there). */
export function withOwnerTable(doc: string): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${ownerTableDoc} has no ${begin} … ${end} block`);
  return doc.slice(0, from) + ownerTable() + doc.slice(to + end.length);
}

export function ownerTableMatches(files: readonly SourceFile[]): Violation[] {
  const doc = files.find((file) => file.path === ownerTableDoc);
  if (doc === undefined) return [];
  if (doc.text.includes(ownerTable())) return [];
  return [
    {
      rule: "owner-table-in-docs",
      file: ownerTableDoc,
      message:
        "the table of tables and owners differs from scripts/dependencies/table-owners.ts: run node scripts/check-dependencies.ts --write-owner-table",
    },
  ];
}
