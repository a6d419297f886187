// The model's areas as modules (issue 76): scripts/check-dependencies.ts fails a reach-around (a table named
// outside its owner, by a builder, in `sql` text or by Kysely's identifiers), a surface breach, a loop between areas,
// a folder the rules do not know, a layer table that drifts from the tree and a transaction above the model.
import { describe, expect, it } from "vitest";
import { check, cleanModel, tree } from "../support/dependency-trees.ts";

describe("scripts/check-dependencies.ts on small trees: the areas (issue 76)", () => {
  it("fails a model area reading another's table, a surface breach and a table named above the model (issue 76)", async () => {
    const root = tree({
      ...cleanModel,
      // A reach-around: sessions joins the users table instead of asking model/users.
      "apps/server/src/model/sessions/load.ts": [
        'import type { Db } from "../../platform/db/schema.ts";',
        "export const load = (db: Db) => db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id');",
        "",
      ].join("\n"),
      // A surface breach: users' CSV internals are its own (import-row.ts is not in its surface).
      "apps/server/src/model/users/import-row.ts": "export const row = 1;\n",
      "apps/server/src/surfaces/admin/import.ts": 'export { row } from "../../model/users/import-row.ts";\n',
    });
    const run = await check(root);
    expect(run.output).toContain("model/sessions/load.ts: names users (2×), which model/users owns");
    expect(run.output).not.toContain("model/sessions/load.ts: names sessions");
    expect(run.output).toContain("table-reader: 1 violation(s)");
    expect(run.output).toContain("surfaces/admin/import.ts: imports model/users/import-row.ts, inside model/users");
    expect(run.output).toContain("area-surface: 1 violation(s)");
    expect(run.status).toBe(1);
    const clean = await check(
      tree({ ...cleanModel, "apps/server/src/model/users/import-row.ts": "export const row = 1;\n" }),
    );
    expect(clean.output).toContain("table-reader: kept");
    expect(clean.output).toContain("area-surface: kept");
    expect(clean.status).toBe(0);
  });

  it("fails a table named by Kysely's identifiers, sql.table() and sql.id(), outside its owner (table-reader)", async () => {
    const raw = (line: string) =>
      ['import { sql } from "kysely";', `export const scope = () => ${line};`, ""].join("\n");
    const run = await check(
      tree({
        ...cleanModel,
        "apps/server/src/model/guests/hosts.ts": raw('sql.table("users")'),
        "apps/server/src/model/wifi/people.ts": raw('sql.id("operator_roles", "user_id")'),
      }),
    );
    expect(run.output).toContain("model/guests/hosts.ts: names users (1×), which model/users owns");
    expect(run.output).toContain("model/wifi/people.ts: names operator_roles (1×), which model/users owns");
    expect(run.output).toContain("table-reader: 2 violation(s)");
    expect(run.status).toBe(1);
    // The owner names its own tables so.
    const own = await check(tree({ ...cleanModel, "apps/server/src/model/users/roles.ts": raw('sql.table("users")') }));
    expect(own.output).toContain("table-reader: kept");
  });

  it("fails a loop between model areas, naming the edges, with no pair excused (no-area-loop)", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/wifi/passwords.ts": 'import { f } from "../ldap/clients.ts";\nexport const g = f;\n',
      "apps/server/src/model/ldap/clients.ts": 'import { h } from "../google/identities.ts";\nexport const f = h;\n',
      "apps/server/src/model/google/identities.ts":
        'import { g } from "../wifi/passwords.ts";\nexport const h = () => g;\n',
    });
    const run = await check(root);
    expect(run.output).toContain("the areas google, ldap, wifi import each other in a loop");
    expect(run.output).toContain("google → wifi (google/identities.ts → wifi/passwords.ts)");
    expect(run.status).toBe(1);
    // The three loops issue 74 broke (users ↔ privacy among them) are no longer excused: one back fails.
    const returned = await check(
      tree({
        ...cleanModel,
        "apps/server/src/model/privacy/erase.ts": 'import { a } from "../users/anonymise.ts";\nexport const e = a;\n',
        "apps/server/src/model/users/anonymise.ts":
          'import { e } from "../privacy/erase.ts";\nexport const a = () => e;\n',
      }),
    );
    expect(returned.output).toContain("import each other in a loop");
    expect(returned.status).toBe(1);
  });

  it("fails a folder the rules do not know: a new layer, a new area without a surface (layout-matches-tree, area-surface)", async () => {
    const run = await check(
      tree({
        ...cleanModel,
        "apps/server/src/helpers/dates.ts": "export const today = 1;\n",
        "apps/server/src/utils.ts": "export const u = 1;\n",
        "apps/server/src/model/badges/awards.ts": "export const award = 1;\n",
      }),
    );
    expect(run.output).toContain("apps/server/src/helpers/: is not a layer");
    expect(run.output).toContain("apps/server/src/utils.ts: sits at the top of apps/server/src");
    expect(run.output).toContain("apps/server/src/model/badges/: model/badges names no surface");
    expect(run.status).toBe(1);
  });

  it("fails docs/architecture.md's layer table and the README's Layout when they drift from the tree (layout-matches-tree)", async () => {
    const layers = ["platform", "model", "sign-in", "protocols", "surfaces"];
    const doc = (protocols: string) =>
      [
        "| Layer | Folders | Finer rule (enforced) |",
        "|---|---|---|",
        "| surfaces | `admin/` | |",
        `| protocols | ${protocols} | |`,
        "| sign-in | | |",
        "| model | `users/` | |",
        "| platform | `db/` | |",
        "",
      ].join("\n");
    const readme = (lines: string[]) => `## Layout\n\n\`\`\`\n${lines.join("\n")}\n\`\`\`\n`;
    const layout = layers.map((layer) => `  src/${layer}/   the ${layer}`);
    const files = {
      ...cleanModel,
      "apps/server/src/protocols/cas/login.ts": "export const login = 1;\n",
      "apps/server/src/sign-in/planted.ts": "export const p = 1;\n",
    };
    const clean = await check(tree({ ...files, "docs/architecture.md": doc("`cas/`"), "README.md": readme(layout) }));
    // (The small doc has no table of owners: owner-table-in-docs fails it, a rule of its own.)
    expect(clean.output).toContain("layout-matches-tree: kept");
    const drifted = await check(
      tree({
        ...files,
        "docs/architecture.md": doc("`saml/`"),
        "README.md": readme([...layout.slice(1), "  src/config/   gone"]),
      }),
    );
    expect(drifted.output).toContain("the layer table's protocols row does not name cas/");
    expect(drifted.output).toContain("the layer table's protocols row names saml/, not in the tree");
    expect(drifted.output).toContain("README.md: Layout names src/config/, which does not exist");
    expect(drifted.output).toContain("README.md: Layout does not name platform/");
    expect(drifted.status).toBe(1);
  });

  it("fails a transaction opened above the model (transactions-only-in-model)", async () => {
    const opened = [
      'import type { Db } from "../../platform/db/schema.ts";',
      "export const edit = (db: Db) => db.transaction().execute(async (tx) => tx);",
      "",
    ].join("\n");
    const run = await check(
      tree({
        ...cleanModel,
        "apps/server/src/protocols/saml/keys.ts": opened,
        "apps/server/src/model/saml/signing-keys.ts": opened,
      }),
    );
    expect(run.output).toContain("protocols/saml/keys.ts: opens a transaction above the model");
    expect(run.output).toContain("transactions-only-in-model: 1 violation(s)");
    expect(run.status).toBe(1);
  });
});
