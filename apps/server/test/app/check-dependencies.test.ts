// `npm run check` refuses each structure rule's breach (issue 58): scripts/check-dependencies.ts runs on a small
// tree made for the rule, and fails it naming the rule; the same tree without the breach passes. The areas' rules
// (issue 76) are in check-dependencies-areas.test.ts.
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { check, checkInChildProcess, cleanModel, tree } from "../support/dependency-trees.ts";

/** A file planted at a path with one import; `crosses` says whether that import breaks a layer rule. */
interface Plant {
  path: string;
  from: string;
  crosses: boolean;
}

// Moved from boundaries.test.ts with the layer rules (biome.json → check-dependencies.ts, issue 58).
const plants: Plant[] = [
  // Layers (issue 42): each imports only its own layer and those below it.
  { path: "apps/server/src/platform/crypto/planted.ts", from: "../../model/sessions/store.ts", crosses: true },
  { path: "apps/server/src/platform/mail/planted.ts", from: "../../surfaces/account/routes.ts", crosses: true },
  { path: "apps/server/src/model/access/planted.ts", from: "../../protocols/oidc/provider.ts", crosses: true },
  { path: "apps/server/src/platform/throttle/planted.ts", from: "../../sign-in/auth/routes.ts", crosses: true },
  { path: "apps/server/src/sign-in/recovery/planted.ts", from: "../../surfaces/account/routes.ts", crosses: true },
  { path: "apps/server/src/sign-in/auth/planted.ts", from: "../../protocols/oidc/logout.ts", crosses: true },
  { path: "apps/server/src/protocols/saml/planted.ts", from: "../../surfaces/admin/routes.ts", crosses: true },
  { path: "apps/server/src/surfaces/cli/planted.ts", from: "../../app.ts", crosses: true },
  // The cycles the review found stay broken: sessions → auth, oidc → auth, apps → users, oidc → seed.
  { path: "apps/server/src/model/sessions/planted.ts", from: "../../sign-in/auth/routes.ts", crosses: true },
  { path: "apps/server/src/protocols/oidc/planted.ts", from: "../../sign-in/auth/grants.ts", crosses: true },
  { path: "apps/server/src/model/apps/planted.ts", from: "../sessions/store.ts", crosses: true },
  { path: "apps/server/src/model/users/planted.ts", from: "../../protocols/oidc/provider.ts", crosses: true },
  { path: "apps/server/src/protocols/oidc/planted-seed.ts", from: "../../surfaces/seed/demo-data.ts", crosses: true },
  { path: "apps/server/src/model/sessions/allowed.ts", from: "../../platform/crypto/tokens.ts", crosses: false },
  // Sign-out (issue 74): the sessions' model reaches no protocol's records; the protocols register participants.
  { path: "apps/server/src/model/sessions/planted-oidc.ts", from: "../oidc/grants.ts", crosses: true },
  { path: "apps/server/src/model/sessions/allowed-access.ts", from: "../access/oidc-consents.ts", crosses: false },
  // Protocols import no other protocol (issue 74), a folder added later included; their own files they may.
  { path: "apps/server/src/protocols/cas/planted.ts", from: "../saml/post-form.ts", crosses: true },
  { path: "apps/server/src/protocols/gopher/planted.ts", from: "../oidc/claims.ts", crosses: true },
  { path: "apps/server/src/protocols/cas/allowed-own.ts", from: "./issue.ts", crosses: false },
  { path: "apps/server/src/protocols/cas/allowed-gate.ts", from: "../../sign-in/gate/gate.ts", crosses: false },
  { path: "apps/server/src/protocols/oidc/allowed.ts", from: "../../model/access/applications.ts", crosses: false },
  { path: "apps/server/src/protocols/oidc/allowed-mfa.ts", from: "../../sign-in/mfa/decision.ts", crosses: false },
  { path: "apps/server/src/sign-in/bankid/allowed.ts", from: "../recovery/reset.ts", crosses: false },
  // Protocols reach no sign-in method, one added later included (issue 76: the methods read from the folders).
  { path: "apps/server/src/protocols/saml/planted-method.ts", from: "../../sign-in/smartid/start.ts", crosses: true },
  { path: "apps/server/src/protocols/saml/allowed-session.ts", from: "../../sign-in/session/read.ts", crosses: false },
  { path: "apps/server/src/surfaces/admin/allowed.ts", from: "../../protocols/saml/index.ts", crosses: false },
  { path: "apps/server/src/surfaces/cli/commands/allowed.ts", from: "./app.ts", crosses: false },
];

/** The plants, and an empty module at each place they import. */
function plantedTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const plant of plants) {
    files[plant.path] = `import { planted } from "${plant.from}";\n\nexport const used = planted;\n`;
    files[join(dirname(plant.path), plant.from)] = "export const planted = 1;\n";
  }
  return files;
}

describe("the server's layers (dependency-cruiser in scripts/check-dependencies.ts)", () => {
  let output = "";
  // The script itself, as `npm run check` runs it: it fails, naming each breach. The other trees run the same
  // check in this process (support/dependency-trees.ts).
  beforeAll(() => {
    const run = checkInChildProcess(tree(plantedTree()));
    // The cruise ran and counted (a crash exits 1 too, and would leave the "lets … import" cases nothing to read).
    const serverPart = "imports of the server, packages, sandbox, samples, tests and tools";
    expect(run.output).toMatch(new RegExp(`${serverPart}: \\d+ violation\\(s\\)`));
    expect(run.status).toBe(1);
    output = run.output;
  });

  it.each(plants.filter((plant) => plant.crosses))("refuses $path importing $from", ({ path }) => {
    expect(output).toContain(`${path} → `);
  });

  it.each(plants.filter((plant) => !plant.crosses))("lets $path import $from", ({ path }) => {
    expect(output).not.toContain(`${path} → `);
  });
});

describe("scripts/check-dependencies.ts on small trees", () => {
  it("passes a tree that keeps every rule: SQL in the owning model module, Fastify in a surface", async () => {
    const rules = ["sql-only-in-model", "table-owner", "fastify-only-in-routes", "plain-values-below-routes"];
    const run = await check(tree(cleanModel), ...rules);
    for (const rule of rules) expect(run.output).toContain(`${rule}: kept`);
    expect(run.status).toBe(0);
  });

  it("fails SQL written in a surface (sql-only-in-model)", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/surfaces/admin/role-list.ts": [
        'import { sql } from "kysely";',
        'import type { Db } from "../../platform/db/schema.ts";',
        "export const roles = (db: Db) => db.selectFrom('operator_roles').select(sql`count(*)`.as('n'));",
        "",
      ].join("\n"),
    });
    const run = await check(root, "sql-only-in-model");
    expect(run.output).toMatch(/sql-only-in-model: 1 violation.*\n.*surfaces\/admin\/role-list\.ts/);
    expect(run.status).toBe(1);
  });

  it("fails a model module writing another's table, and a migration's table nobody owns (table-owner)", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/developers/approval.ts": [
        'import type { Db } from "../../platform/db/schema.ts";',
        "export const grant = (db: Db) => db.insertInto('access_rules').values({});",
        "export const read = (db: Db) => db.selectFrom('access_rules').selectAll();",
        "",
      ].join("\n"),
      "apps/server/src/platform/db/migrations/0999_new.sql": "create table orphans (id text primary key);\n",
    });
    const run = await check(root, "table-owner");
    expect(run.output).toContain("model/developers/approval.ts: writes access_rules, which model/access owns");
    expect(run.output).toContain("0999_new.sql: creates orphans, which has no owner");
    expect(run.output).toContain("table-owner: 2 violation(s)");
    expect(run.status).toBe(1);
  });

  it("fails Fastify's types in the model (fastify-only-in-routes)", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/users/notify.ts":
        'import type { FastifyRequest } from "fastify";\nexport type R = FastifyRequest;\n',
    });
    const run = await check(root, "fastify-only-in-routes");
    expect(run.output).toMatch(/fastify-only-in-routes: 1 violation.*\n.*model\/users\/notify\.ts: imports fastify/);
    expect(run.status).toBe(1);
  });

  it("fails the model reaching Fastify through platform/http, and a chain to it (plain-values-below-routes)", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/platform/http/notify.ts":
        'import type { FastifyRequest } from "fastify";\nexport const notify = (request: FastifyRequest) => request.id;\n',
      "apps/server/src/model/users/mail.ts": 'export { notify } from "../../platform/http/notify.ts";\n',
      "apps/server/src/model/users/welcome.ts": 'import { notify } from "./mail.ts";\nexport const welcome = notify;\n',
    });
    const run = await check(root, "plain-values-below-routes");
    expect(run.output).toContain("model/users/mail.ts: reaches platform/http (platform/http/notify.ts)");
    expect(run.output).toContain(
      "model/users/welcome.ts: reaches platform/http (model/users/mail.ts → platform/http/notify.ts)",
    );
    expect(run.output).toContain("plain-values-below-routes: 2 violation(s)");
    expect(run.status).toBe(1);
  });

  it("fails an upward import from the model to a surface", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/model/users/admin-link.ts": 'export { person } from "../../surfaces/admin/person-card.ts";\n',
    });
    const run = await check(root);
    expect(run.output).toContain("no-upward-import-from-model");
    expect(run.status).toBe(1);
  });

  it("fails model/sessions importing a protocol's records, the protocols read from their folders (sessions-import-no-protocol)", async () => {
    const ldap = {
      ...cleanModel,
      // A protocol folder the rule has never named: its records in the model are a protocol's all the same.
      "apps/server/src/protocols/ldap/index.ts": "export const bind = 1;\n",
      "apps/server/src/model/ldap/binds.ts": "export const forgetBinds = 1;\n",
    };
    const planted = tree({
      ...ldap,
      "apps/server/src/model/sessions/end.ts":
        'import { forgetBinds } from "../ldap/binds.ts";\nexport const end = forgetBinds;\n',
    });
    const run = await check(planted);
    expect(run.output).toContain("sessions-import-no-protocol");
    expect(run.status).toBe(1);
    const clean = await check(tree({ ...ldap, "apps/server/src/model/sessions/end.ts": "export const end = 1;\n" }));
    expect(clean.output).not.toContain("sessions-import-no-protocol");
    expect(clean.status).toBe(0);
  });

  it("fails a circle of two platform files", async () => {
    const root = tree({
      ...cleanModel,
      "apps/server/src/platform/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "apps/server/src/platform/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
    });
    const run = await check(root);
    expect(run.output).toContain("no-circular");
    expect(run.status).toBe(1);
  });

  it("fails a table of owners in docs/architecture.md that differs from the map (owner-table-in-docs)", async () => {
    const stale =
      "<!-- table-owners:begin (generated from scripts/dependencies/table-owners.ts) -->\n| Owner |\n<!-- table-owners:end -->\n";
    const run = await check(tree({ ...cleanModel, "docs/architecture.md": stale }), "owner-table-in-docs");
    expect(run.output).toContain("owner-table-in-docs: 1 violation");
    expect(run.status).toBe(1);
  });

  it("fails a server test left flat, named after an area or not (server-tests-mirror-src)", async () => {
    const named = await check(tree({ ...cleanModel, "apps/server/test/oidc-consent.test.ts": "export {};\n" }));
    expect(named.output).toContain(
      "oidc-consent.test.ts: belongs in apps/server/test/protocols/oidc/oidc-consent.test.ts",
    );
    expect(named.status).toBe(1);
    const unnamed = await check(tree({ ...cleanModel, "apps/server/test/something-new.test.ts": "export {};\n" }));
    expect(unnamed.output).toMatch(/something-new\.test\.ts: sits flat in apps\/server\/test/);
    expect(unnamed.status).toBe(1);
    const placed = await check(
      tree({ ...cleanModel, "apps/server/test/protocols/oidc/oidc-consent.test.ts": "export {};\n" }),
    );
    expect(placed.output).toContain("server-tests-mirror-src: kept");
    expect(placed.status).toBe(0);
  });
});
