// `npm run check` refuses each structure rule's breach (issue 58): scripts/check-dependencies.ts runs on a small
// tree made for the rule, and fails it naming the rule; the same tree without the breach passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const checker = fileURLToPath(new URL("../../../scripts/check-dependencies.ts", import.meta.url));
const trees: string[] = [];

afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A repository-shaped tree with these files (paths from its root) and a tsconfig that resolves them. */
function tree(files: Record<string, string>): string {
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

function check(root: string, ...enforce: string[]) {
  const args = [checker, "--root", root, ...enforce.flatMap((rule) => ["--enforce", rule])];
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const cleanModel = {
  "apps/server/src/platform/db/schema.ts": "export type Db = { name: string };\n",
  "apps/server/src/model/users/queries.ts": [
    'import type { Db } from "../../platform/db/schema.ts";',
    "export const findUser = (db: Db, id: string) => db.selectFrom('users').where('id', '=', id);",
    "export const renameUser = (db: Db, id: string) => db.updateTable('users').where('id', '=', id);",
    "",
  ].join("\n"),
  "apps/server/src/surfaces/admin/people.ts": [
    'import type { FastifyRequest } from "fastify";',
    'import { findUser } from "../../model/users/queries.ts";',
    "export const person = (request: FastifyRequest & { db: never }) => findUser(request.db, 'x');",
    "",
  ].join("\n"),
};

describe("scripts/check-dependencies.ts on small trees", () => {
  it("passes a tree that keeps every rule: SQL in the owning model module, Fastify in a surface", () => {
    const run = check(tree(cleanModel), "sql-only-in-model", "table-owner", "fastify-only-in-routes");
    expect(run.output).toContain("sql-only-in-model: kept");
    expect(run.status).toBe(0);
  });

  it("fails SQL written in a surface (sql-only-in-model)", () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/surfaces/admin/roles.ts": [
        'import { sql } from "kysely";',
        'import type { Db } from "../../platform/db/schema.ts";',
        "export const roles = (db: Db) => db.selectFrom('operator_roles').select(sql`count(*)`.as('n'));",
        "",
      ].join("\n"),
    });
    const run = check(root, "sql-only-in-model");
    expect(run.output).toMatch(/sql-only-in-model: 1 violation.*\n.*surfaces\/admin\/roles\.ts/);
    expect(run.status).toBe(1);
  });

  it("fails a model module writing another's table, and a migration's table nobody owns (table-owner)", () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/developers/review.ts": [
        'import type { Db } from "../../platform/db/schema.ts";',
        "export const grant = (db: Db) => db.insertInto('access_rules').values({});",
        "export const read = (db: Db) => db.selectFrom('access_rules').selectAll();",
        "",
      ].join("\n"),
      "apps/server/src/platform/db/migrations/0999_new.sql": "create table orphans (id text primary key);\n",
    });
    const run = check(root, "table-owner");
    expect(run.output).toContain("model/developers/review.ts: writes access_rules, which model/access owns");
    expect(run.output).toContain("0999_new.sql: creates orphans, which has no owner");
    expect(run.output).toContain("table-owner: 2 violation(s)");
    expect(run.status).toBe(1);
  });

  it("fails Fastify's types in the model (fastify-only-in-routes)", () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/users/notify.ts":
        'import type { FastifyRequest } from "fastify";\nexport type R = FastifyRequest;\n',
    });
    const run = check(root, "fastify-only-in-routes");
    expect(run.output).toMatch(/fastify-only-in-routes: 1 violation.*\n.*model\/users\/notify\.ts: imports fastify/);
    expect(run.status).toBe(1);
  });

  it("fails an upward import from the model to a surface", () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/users/admin-link.ts": 'export { person } from "../../surfaces/admin/people.ts";\n',
    });
    const run = check(root);
    expect(run.output).toContain("no-upward-import-from-model");
    expect(run.status).toBe(1);
  });

  it("fails a circle of two platform files", () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/platform/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "apps/server/src/platform/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
    });
    const run = check(root);
    expect(run.output).toContain("no-circular");
    expect(run.status).toBe(1);
  });

  it("fails a table of owners in docs/architecture.md that differs from the map (owner-table-in-docs)", () => {
    const stale =
      "<!-- table-owners:begin (generated from scripts/dependencies/table-owners.ts) -->\n| Owner |\n<!-- table-owners:end -->\n";
    const run = check(tree({ ...cleanModel, "docs/architecture.md": stale }), "owner-table-in-docs");
    expect(run.output).toContain("owner-table-in-docs: 1 violation");
    expect(run.status).toBe(1);
  });

  it("reports a flat server test while the placement rule is off, and fails it once on", () => {
    const root = tree({ ...cleanModel, "apps/server/test/oidc-consent.test.ts": "export {};\n" });
    const off = check(root);
    expect(off.output).toContain("server-tests-mirror-src: off (1 file(s) would break it)");
    expect(off.status).toBe(0);
    const on = check(root, "server-tests-mirror-src");
    expect(on.output).toContain(
      "oidc-consent.test.ts: belongs in apps/server/test/protocols/oidc/oidc-consent.test.ts",
    );
    expect(on.status).toBe(1);
  });
});
