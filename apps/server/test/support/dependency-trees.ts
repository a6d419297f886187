// Small repository-shaped trees for the dependency check's tests (check-dependencies*.test.ts): each test writes
// the files a rule is about, runs the check on them and reads what it says. `check` runs it in the test's process
// (scripts/dependencies/check.ts: the same rules and report as `npm run check`, about a second of CPU less than a
// node process loading dependency-cruiser for each tree); `checkInChildProcess` runs the script itself, as `npm run
// check` does, for its exit status.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { checkDependencies } from "../../../../scripts/dependencies/check.ts";

const checker = fileURLToPath(new URL("../../../../scripts/check-dependencies.ts", import.meta.url));
const trees: string[] = [];

afterAll(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A repository-shaped tree with these files (paths from its root) and a tsconfig that resolves them. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "kpi-id-dependencies-"));
  trees.push(root);
  const base = {
    compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", allowImportingTsExtensions: true },
  };
  const all = { "tsconfig.base.json": JSON.stringify(base), ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The check on a tree of the tests' own: its report, and the exit status the script would give (1: a violation). */
export async function check(root: string, ...enforce: string[]) {
  const lines: string[] = [];
  const violations = await checkDependencies({ root, enforce, ownTree: false, log: (line) => lines.push(line) });
  return { status: violations === 0 ? 0 : 1, output: `${lines.join("\n")}\n` };
}

/** `node scripts/check-dependencies.ts --root <tree>`, as `npm run check` runs it on the repository. */
export function checkInChildProcess(root: string, ...enforce: string[]) {
  const args = [checker, "--root", root, ...enforce.flatMap((rule) => ["--enforce", rule])];
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export const cleanModel = {
  "apps/server/src/platform/db/schema.ts": "export type Db = { name: string };\n",
  "apps/server/src/model/users/queries.ts": [
    'import type { Db } from "../../platform/db/schema.ts";',
    "export const findUser = (db: Db, id: string) => db.selectFrom('users').where('id', '=', id);",
    "export const renameUser = (db: Db, id: string) => db.updateTable('users').where('id', '=', id);",
    "",
  ].join("\n"),
  "apps/server/src/surfaces/admin/person-card.ts": [
    'import type { FastifyRequest } from "fastify";',
    'import { findUser } from "../../model/users/queries.ts";',
    "export const person = (request: FastifyRequest & { db: never }) => findUser(request.db, 'x');",
    "",
  ].join("\n"),
};
