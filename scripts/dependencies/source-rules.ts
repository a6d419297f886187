// The rules dependency-cruiser cannot see because they are about what a file says, not what it imports from where
// (issue 58): where SQL may be written, which module writes each table, where Fastify's types may appear, and
// where the server's tests sit. Each takes the files' text and answers the violations; check.ts runs them with
// the allowlist.
import { posix } from "node:path";
import { tableOwners } from "./table-owners.ts";

export interface SourceFile {
  /** Repository-relative, with forward slashes. */
  path: string;
  text: string;
}

export interface Violation {
  rule: string;
  file: string;
  /** The table, for the table-owner rule: an allowlist entry names it. */
  table?: string;
  message: string;
}

const serverSource = "apps/server/src/";

/** A server source file's path below apps/server/src, or undefined for any other file. */
export function serverPathOf(file: SourceFile): string | undefined {
  return file.path.startsWith(serverSource) ? file.path.slice(serverSource.length) : undefined;
}

const sqlOwnerFolders = [...new Set(Object.values(tableOwners))].filter((owner) => !owner.startsWith("model/"));

/** Where SQL may be written: any model module (each owns its tables), platform/db and the platform owners. */
export function maySpeakSql(srcPath: string): boolean {
  return srcPath.startsWith("model/") || sqlOwnerFolders.some((folder) => srcPath.startsWith(`${folder}/`));
}

/** Imports of a value (not only types) from kysely: `import { sql }`, `import { Kysely, type Selectable }`. */
function importsKyselyValue(text: string): boolean {
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']kysely["']/g)) {
    if (match[1]) continue;
    const names = (match[2] ?? "").split(",").map((name) => name.trim());
    if (names.some((name) => name !== "" && !name.startsWith("type "))) return true;
  }
  return /import\s+\*\s+as\s+\w+\s+from\s*["']kysely["']/.test(text);
}

const statementBuilders = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/;

/** SQL (kysely values, `sql`, statement builders) only in model/* and platform/db (and the platform owners). */
export function sqlOutsideModel(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const srcPath = serverPathOf(file);
    if (srcPath === undefined || maySpeakSql(srcPath)) continue;
    const builder = file.text.match(statementBuilders);
    if (!importsKyselyValue(file.text) && !builder) continue;
    violations.push({
      rule: "sql-only-in-model",
      file: file.path,
      message: `writes SQL${builder ? ` (${builder[1]})` : " (imports kysely's sql or a query builder)"} outside model/* and platform/db: call the owning model module's function`,
    });
  }
  return violations;
}

const builderWrite = /\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*["'`]([a-z_]+)/g;
const sqlTemplate = /\bsql(?:<[^`>]*(?:<[^`>]*>)?[^`>]*>)?`([^`]*)`/g;
const textWrite = /\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)/gi;

/** The tables a file writes: statement builders and the text of `sql` templates. */
export function tablesWritten(text: string): Set<string> {
  const tables = new Set<string>();
  for (const match of text.matchAll(builderWrite)) tables.add(match[2] ?? "");
  for (const template of text.matchAll(sqlTemplate)) {
    for (const match of (template[1] ?? "").matchAll(textWrite)) tables.add((match[1] ?? "").toLowerCase());
  }
  return new Set([...tables].filter((table) => table in tableOwners));
}

/** A table is written only in the folder that owns it (tableOwners); every table a migration creates has one. */
export function tableOwnership(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const srcPath = serverPathOf(file);
    if (srcPath === undefined || !maySpeakSql(srcPath) || srcPath.startsWith("platform/db/")) continue;
    for (const table of tablesWritten(file.text)) {
      const owner = tableOwners[table];
      if (owner === undefined || srcPath.startsWith(`${owner}/`)) continue;
      violations.push({
        rule: "table-owner",
        file: file.path,
        table,
        message: `writes ${table}, which ${owner} owns: call a function of ${owner}`,
      });
    }
  }
  for (const file of files) {
    if (!/^apps\/server\/src\/platform\/db\/migrations\/.*\.sql$/.test(file.path)) continue;
    for (const match of file.text.matchAll(/create\s+(?:table|view)\s+(?:if\s+not\s+exists\s+)?([a-z_]+)/gi)) {
      const table = (match[1] ?? "").toLowerCase();
      if (table in tableOwners) continue;
      violations.push({
        rule: "table-owner",
        file: file.path,
        table,
        message: `creates ${table}, which has no owner: add it to scripts/dependencies/table-owners.ts`,
      });
    }
  }
  return violations;
}

const fastifyImport =
  /(?:from|import)\s*\(?\s*["'](fastify|fastify-plugin|fastify-type-provider-zod|@fastify\/[^"']+)["']/;

/** Fastify (values or types) only in surfaces, protocols, sign-in methods' routes and platform/http. */
export function fastifyBelowRoutes(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const srcPath = serverPathOf(file);
    if (srcPath === undefined) continue;
    const below =
      srcPath.startsWith("model/") || (srcPath.startsWith("platform/") && !srcPath.startsWith("platform/http/"));
    const found = below ? file.text.match(fastifyImport) : null;
    if (!found) continue;
    violations.push({
      rule: "fastify-only-in-routes",
      file: file.path,
      message: `imports ${found[1]} below the routes: take plain values (db, clock, ids, address, user agent) instead of the request`,
    });
  }
  return violations;
}

/** Below the routes: the model and the platform but its request/reply code (platform/http). */
function belowRoutes(srcPath: string): boolean {
  return srcPath.startsWith("model/") || (srcPath.startsWith("platform/") && !srcPath.startsWith("platform/http/"));
}

const relativeImport = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** The server source files a file imports (values, types and re-exports), as paths below apps/server/src. */
function serverImportsOf(srcPath: string, text: string): string[] {
  return [...text.matchAll(relativeImport)].map((match) =>
    posix.normalize(posix.join(posix.dirname(srcPath), match[1] ?? "")),
  );
}

/**
 * Model and platform modules take plain values: none imports platform/http, nor reaches Fastify through a
 * chain of imports (fastify-only-in-routes sees only a file's own imports). Each violation names its chain.
 */
export function requestCodeBelowRoutes(files: readonly SourceFile[]): Violation[] {
  const texts = new Map<string, string>();
  for (const file of files) {
    const srcPath = serverPathOf(file);
    if (srcPath?.endsWith(".ts")) texts.set(srcPath, file.text);
  }
  const imports = new Map([...texts].map(([path, text]) => [path, serverImportsOf(path, text)]));
  /** What makes a file request code: its place in platform/http or its own import of Fastify. */
  const requestCode = (path: string) =>
    path.startsWith("platform/http/") ? "platform/http" : texts.get(path)?.match(fastifyImport)?.[1];
  const violations: Violation[] = [];
  for (const start of texts.keys()) {
    if (!belowRoutes(start)) continue;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    let reached: { path: string; what: string } | undefined;
    while (queue.length > 0 && !reached) {
      const path = queue.shift() ?? "";
      for (const next of imports.get(path) ?? []) {
        if (next === start || cameFrom.has(next)) continue;
        cameFrom.set(next, path);
        const what = requestCode(next);
        if (what) {
          reached = { path: next, what };
          break;
        }
        if (texts.has(next)) queue.push(next);
      }
    }
    if (!reached) continue;
    const chain = [reached.path];
    for (let at = reached.path; cameFrom.get(at) !== start; ) {
      at = cameFrom.get(at) ?? start;
      chain.unshift(at);
    }
    violations.push({
      rule: "plain-values-below-routes",
      file: `${serverSource}${start}`,
      message: `reaches ${reached.what} (${chain.join(" → ")}): move the plain part out of platform/http and import that`,
    });
  }
  return violations;
}
