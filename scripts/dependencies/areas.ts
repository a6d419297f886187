// The model's areas as modules (issue 76): each apps/server/src/model/<area> owns its tables (table-owners.ts) and
// offers a surface, the files other areas and layers may import (areaSurfaces in table-owners.ts, also in the table
// of owners in docs/architecture.md). Three rules, all derived from the folders, so a new area is covered at once:
// - area-surface: an import into model/<area> from outside it names a file of its surface, and every area has one;
// - table-reader: a table is named (read, joined or written) only in its owner's folder: another area asks the
//   owner's functions (a join the owner offers as a function keeps one statement);
// - no-area-loop: no area reaches itself through other areas' imports;
// - transactions-only-in-model: a transaction is opened in the model, never above it.
import { posix } from "node:path";
import type { SourceFile, Violation } from "./source-rules.ts";
import { areaSurfaces, tableOwners } from "./table-owners.ts";

const modelFolder = "apps/server/src/model/";

/**
 * Pairs of areas whose imports no-area-loop leaves out. Empty since issue 74 broke the last three loops (access ↔
 * oidc, sessions ↔ tickets, users ↔ privacy): no-area-loop holds for every area; the check's tests pass their own.
 */
export const loopsBeingBrokenInIssue74: readonly (readonly [string, string])[] = [];

/** The area of a path below the repository root (apps/server/src/model/<area>/…), or undefined. */
export function areaOf(path: string): string | undefined {
  return path.startsWith(modelFolder) ? path.slice(modelFolder.length).split("/", 2)[0] : undefined;
}

/** The model's areas: its folders (a file directly in model/ belongs to none). */
export function modelAreas(files: readonly SourceFile[]): string[] {
  const areas = new Set<string>();
  for (const file of files) {
    const rest = file.path.startsWith(modelFolder) ? file.path.slice(modelFolder.length) : "";
    if (rest.includes("/")) areas.add(rest.split("/", 1)[0] ?? "");
  }
  return [...areas].sort();
}

const relativeImport = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** The repository paths a file imports by a relative path (values, types, re-exports, dynamic imports). */
export function importsOf(file: SourceFile): string[] {
  return [...file.text.matchAll(relativeImport)].map((match) =>
    posix.normalize(posix.join(posix.dirname(file.path), match[1] ?? "")),
  );
}

const serverSource = (file: SourceFile) => file.path.startsWith("apps/server/src/") && file.path.endsWith(".ts");

/**
 * Imports into model/<area> from outside it go to a file of the area's surface; every area names its surface, and
 * (in the repository itself, `ownTree`) every file a surface names exists.
 */
export function areaSurfaceViolations(files: readonly SourceFile[], ownTree = true): Violation[] {
  const violations: Violation[] = [];
  const paths = new Set(files.map((file) => file.path));
  for (const area of modelAreas(files)) {
    const surface = areaSurfaces[`model/${area}`];
    if (surface === undefined || surface.length === 0) {
      violations.push({
        rule: "area-surface",
        file: `${modelFolder}${area}/`,
        message: `model/${area} names no surface: give it its tables and the files others may import in scripts/dependencies/table-owners.ts (tableOwners, areaSurfaces)`,
      });
      continue;
    }
    for (const name of ownTree ? surface : []) {
      if (paths.has(`${modelFolder}${area}/${name}`)) continue;
      violations.push({
        rule: "area-surface",
        file: `${modelFolder}${area}/${name}`,
        message: `is named in model/${area}'s surface but does not exist: update areaSurfaces`,
      });
    }
  }
  for (const file of files.filter(serverSource)) {
    const from = areaOf(file.path);
    for (const target of importsOf(file)) {
      const area = areaOf(target);
      if (area === undefined || area === from) continue;
      const surface = areaSurfaces[`model/${area}`];
      if (surface === undefined || surface.includes(target.slice(`${modelFolder}${area}/`.length))) continue;
      violations.push({
        rule: "area-surface",
        file: file.path,
        message: `imports ${target.slice("apps/server/src/".length)}, inside model/${area}: import its surface (${surface.join(", ")}) or add the file to it`,
      });
    }
  }
  return violations;
}

const namingBuilder =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*(\[[^\]]*\]|["'`][^"'`]+["'`])/g;
const sqlTemplate = /\bsql(?:<[^`>]*(?:<[^`>]*>)?[^`>]*>)?`([^`]*)`/g;
const textReference = /\b(?:from|join|into|update)\s+([a-z_]+)/gi;
const qualifiedColumn = /["'`]([a-z_]+)\.[a-z_*]+["'`]/g;
// Kysely's identifiers in a raw statement: `sql.table("users")`, `sql.id("users", "id")` (a table name given as a
// value, which neither the builders nor the text of the template show).
const sqlIdentifier = /\bsql\.(?:table|id)\(\s*["'`]([a-z_]+)["'`]/g;

/**
 * The tables a file names, with how often: statement builders, joins, `table.column`, `sql` text and Kysely's
 * `sql.table`/`sql.id` identifiers.
 */
export function tablesNamed(text: string): Map<string, number> {
  const named = new Map<string, number>();
  const add = (table: string) => {
    if (table in tableOwners) named.set(table, (named.get(table) ?? 0) + 1);
  };
  for (const match of text.matchAll(namingBuilder)) {
    for (const name of (match[2] ?? "").matchAll(/["'`]([a-z_]+)/g)) add(name[1] ?? "");
  }
  for (const template of text.matchAll(sqlTemplate)) {
    for (const match of (template[1] ?? "").matchAll(textReference)) add((match[1] ?? "").toLowerCase());
  }
  for (const match of text.matchAll(qualifiedColumn)) add(match[1] ?? "");
  for (const match of text.matchAll(sqlIdentifier)) add(match[1] ?? "");
  return named;
}

/** A table is named only in its owner's folder (platform/db's schema and migrations describe them all). */
export function tableReaderViolations(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files.filter(serverSource)) {
    const srcPath = file.path.slice("apps/server/src/".length);
    if (srcPath.startsWith("platform/db/")) continue;
    for (const [table, times] of tablesNamed(file.text)) {
      const owner = tableOwners[table] ?? "";
      if (srcPath.startsWith(`${owner}/`)) continue;
      violations.push({
        rule: "table-reader",
        file: file.path,
        table,
        message: `names ${table} (${times}×), which ${owner} owns: call a function of ${owner}'s surface`,
      });
    }
  }
  return violations;
}

/** Area → the areas it imports, with one importing file per edge (to name in a violation). */
export function areaGraph(files: readonly SourceFile[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files.filter(serverSource)) {
    const from = areaOf(file.path);
    if (from === undefined) continue;
    for (const target of importsOf(file)) {
      const to = areaOf(target);
      if (to === undefined || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file.path.slice(modelFolder.length)} → ${target.slice(modelFolder.length)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** The loops: strongly connected groups of more than one area (Tarjan), each sorted, with the edges inside. */
export function areaLoops(
  graph: Map<string, Map<string, string>>,
  excused: readonly (readonly [string, string])[] = [],
): { areas: string[]; edges: string[] }[] {
  const isExcused = (a: string, b: string) => excused.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const next = (area: string) => [...(graph.get(area)?.keys() ?? [])].filter((to) => !isExcused(area, to));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: { areas: string[]; edges: string[] }[] = [];
  const visit = (area: string) => {
    index.set(area, index.size);
    low.set(area, index.get(area) ?? 0);
    stack.push(area);
    for (const to of next(area)) {
      if (!index.has(to)) {
        visit(to);
        low.set(area, Math.min(low.get(area) ?? 0, low.get(to) ?? 0));
      } else if (stack.includes(to)) low.set(area, Math.min(low.get(area) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(area) !== index.get(area)) return;
    const group: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = top === area ? undefined : stack.pop()) group.push(top);
    if (group.length < 2) return;
    const edges = group.flatMap((a) =>
      next(a)
        .filter((b) => group.includes(b))
        .map((b) => `${a} → ${b} (${graph.get(a)?.get(b)})`),
    );
    loops.push({ areas: group.sort(), edges: edges.sort() });
  };
  for (const area of [...graph.keys()].sort()) if (!index.has(area)) visit(area);
  return loops;
}

/** No area reaches itself through the others (the pairs issue 74 is breaking left out until it merges). */
export function areaLoopViolations(files: readonly SourceFile[], excused = loopsBeingBrokenInIssue74): Violation[] {
  return areaLoops(areaGraph(files), excused).map((loop) => ({
    rule: "no-area-loop",
    file: `${modelFolder}{${loop.areas.join(",")}}`,
    message: `the areas ${loop.areas.join(", ")} import each other in a loop: ${loop.edges.join("; ")} — move what they share to the lower one, or have the caller pass it as a value`,
  }));
}

const opensTransaction = /\.transaction\(\)|\binTransactionUnderLock\(/;

/**
 * A transaction is opened only in the model (and by platform/db's helpers, for the model): what must change
 * together is one model function, so the rules of what changes with what live with the tables (issue 76).
 */
export function transactionViolations(files: readonly SourceFile[]): Violation[] {
  return files
    .filter((file) => serverSource(file) && !/^apps\/server\/src\/(model|platform\/db)\//.test(file.path))
    .filter((file) => opensTransaction.test(file.text))
    .map((file) => ({
      rule: "transactions-only-in-model",
      file: file.path,
      message: "opens a transaction above the model: make what changes together one function of the owning area",
    }));
}
