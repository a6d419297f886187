import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { totpSealPurpose } from "../../../src/model/mfa/totp.ts";
import { unseal } from "../../../src/platform/crypto/seal.ts";
import type { DatabaseHandle } from "../../../src/platform/db/index.ts";
import { listMigrations, migrate } from "../../../src/platform/db/migrate.ts";
import type { UpgradeFacts } from "../../fixtures/upgrade-0.2.0/facts.ts";
import { postJson, testConfig } from "../../support/app.ts";
import { testBrowser } from "../../support/browser.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";
import { softAuthenticator } from "../../support/passkey-authenticator.ts";
import { scim } from "../../support/scim.ts";

/**
 * The upgrade test (issue 40): a database 0.2.0 made (fixtures/upgrade-0.2.0, generated with 0.2.0's own
 * code: its README says how) migrates to the current release with every row intact, and everyone signs in.
 */
const fixture = new URL("../../fixtures/upgrade-0.2.0/", import.meta.url);
const facts = JSON.parse(readFileSync(new URL("facts.json", fixture), "utf8")) as UpgradeFacts;
const dump = readFileSync(new URL("dump.sql", fixture), "utf8");
/** 0.2.0's last migration; 0001-0310 are byte for byte the files 0.2.0 shipped. */
const previousRelease = 310;

/**
 * Moves every time in the dump forward by the fixture's age, as if 0.2.0 had made it a moment ago: sessions,
 * tokens and keys made then would otherwise have expired by the time the test runs. OpenID Connect's stored
 * payloads carry their times as seconds inside the JSON.
 */
async function moveToNow(database: DatabaseHandle): Promise<void> {
  const seconds = Math.floor((Date.now() - Date.parse(facts.generatedAt)) / 1000);
  await database.scriptTransaction(async (tx) => {
    const columns = await tx.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = current_schema() and data_type = 'timestamp with time zone'`,
    );
    for (const { table_name, column_name } of columns) {
      await tx.exec(
        `update "${table_name}" set "${column_name}" = "${column_name}" + interval '${seconds} seconds' where "${column_name}" is not null`,
      );
    }
    for (const field of ["exp", "iat", "iiat", "authTime", "loginTs"]) {
      await tx.exec(
        `update oidc_payloads set payload = jsonb_set(payload, '{${field}}', to_jsonb((payload->>'${field}')::bigint + ${seconds}))
         where payload ? '${field}'`,
      );
    }
  });
}

/** Every row of every table 0.2.0 had, as text of the columns 0.2.0 had, in a stable order. */
async function contents(database: DatabaseHandle, columnsOf: Map<string, string[]>): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  for (const [table, columns] of columnsOf) {
    const row = columns.map((column) => `'${column}', "${column}"`).join(", ");
    const rows = await database.scriptTransaction((tx) =>
      tx.query<{ row: string }>(`select jsonb_build_object(${row})::text as row from "${table}" order by 1`),
    );
    result.set(
      table,
      rows.map((each) => each.row),
    );
  }
  return result;
}

async function tablesAndColumns(database: DatabaseHandle): Promise<Map<string, string[]>> {
  const rows = await database.scriptTransaction((tx) =>
    tx.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.table_name <> 'schema_migrations'
       order by c.table_name, c.ordinal_position`,
    ),
  );
  const result = new Map<string, string[]>();
  for (const { table_name, column_name } of rows)
    result.set(table_name, [...(result.get(table_name) ?? []), column_name]);
  return result;
}

/**
 * 0416 stores OpenID Connect token ids hashed (announced in CHANGELOG's 0.3.0 upgrade notes): those rows
 * are the same rows under new ids, so the table is compared by count and by what else each row holds.
 */
const rewrittenByDesign: Record<string, string[]> = { oidc_payloads: ["id", "grant_id", "payload"] };

describe.each(databaseKinds)("upgrading a database 0.2.0 made (%s)", (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let before: Map<string, string[]>;
  let after: Map<string, string[]>;
  let applied: string[];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrated: false });
    await migrate(
      database.handle,
      listMigrations().filter((migration) => migration.version <= previousRelease),
    );
    await database.handle.scriptTransaction((tx) => tx.exec(dump));
    await moveToNow(database.handle);
    const oldShape = await tablesAndColumns(database.handle);
    for (const [table, skipped] of Object.entries(rewrittenByDesign)) {
      oldShape.set(
        table,
        (oldShape.get(table) ?? []).filter((column) => !skipped.includes(column)),
      );
    }
    before = await contents(database.handle, oldShape);
    applied = await migrate(database.handle);
    after = await contents(database.handle, oldShape);
    app = await buildApp({
      config: testConfig({ SESSION_SECRET: facts.sessionSecret }),
      database: database.handle,
      logger: false,
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  it("applies the third round's migrations and keeps every row of every table", () => {
    expect(applied[0]).toMatch(/^0415_/);
    expect([...before.values()].reduce((sum, rows) => sum + rows.length, 0)).toBeGreaterThan(100);
    for (const table of [
      "users",
      "student_records",
      "employee_positions",
      "sessions",
      "totp_factors",
      "webauthn_credentials",
      "oidc_consents",
      "saml_service_providers",
      "scim_tokens",
      "audit_events",
    ]) {
      expect(before.get(table)?.length, table).toBeGreaterThan(0);
    }
    for (const [table, rows] of before) expect(after.get(table), table).toEqual(rows);
  });

  it("signs every person in with their password, asking those with an authenticator app for its code", async () => {
    for (const [index, person] of facts.people.entries()) {
      const answer = await postJson(
        app,
        "/api/auth",
        { username: person.username, password: person.password },
        { remoteAddress: `198.51.100.${index + 1}` },
      );
      expect(answer.statusCode, person.username).toBe(200);
      expect(answer.json().secondFactor, person.username).toBe(
        facts.totp.includes(person.username) ? "totp" : undefined,
      );
    }
  });

  it("takes the authenticator app's code, its secret sealed by 0.2.0", async () => {
    const username = facts.totp[0] ?? "";
    const password = facts.people.find((person) => person.username === username)?.password;
    const row = await app.db
      .selectFrom("totp_factors")
      .innerJoin("users", "users.id", "totp_factors.user_id")
      .select("secret_sealed")
      .where("username", "=", username)
      .executeTakeFirstOrThrow();
    const secret = unseal(app.config.sessionSecret, totpSealPurpose, row.secret_sealed);
    expect(secret).toBeTruthy();
    const { generate } = await import("otplib");
    const auth = await postJson(app, "/api/auth", { username, password }, { remoteAddress: "198.51.100.200" });
    const code = await generate({ secret: secret ?? "", epoch: Math.floor(Date.now() / 1000) });
    const second = await postJson(
      app,
      "/api/auth/second-factor",
      { sessionId: auth.json().sessionId, code },
      { remoteAddress: "198.51.100.200" },
    );
    expect(second.statusCode).toBe(200);
  });

  it("keeps the sessions people had open, and signs in with the passkey added under 0.2.0", async () => {
    for (const session of facts.sessions) {
      const user = await app.inject({ url: "/api/user", headers: { cookie: session.cookie } });
      expect(user.statusCode, session.username).toBe(200);
    }
    const { passkey } = facts;
    const key = {
      privateKey: createPrivateKey(passkey.privateKey),
      x: Buffer.from(passkey.x, "base64url"),
      y: Buffer.from(passkey.y, "base64url"),
    };
    const authenticator = softAuthenticator(
      { origin: facts.publicUrl, rpId: new URL(facts.publicUrl).hostname },
      { key, id: Buffer.from(passkey.credentialId, "base64url") },
    );
    authenticator.signCount = passkey.signCount;
    authenticator.adoptUserHandle(passkey.userHandle);
    const browser = testBrowser(app, "198.51.100.210");
    const options = await browser.post("/api/auth/passkey/options", {});
    const answer = await browser.post("/api/auth/passkey", {
      response: authenticator.authenticate(options.json().options),
    });
    expect(answer.statusCode).toBe(200);
    const owner = await app.db
      .selectFrom("users")
      .select("full_name")
      .where("username", "=", passkey.username)
      .executeTakeFirstOrThrow();
    expect((await browser.get("/api/user")).json().fullName).toBe(owner.full_name);
  });

  it("refreshes the applications' tokens, answers the HR system's SCIM token and keeps the SAML certificate", async () => {
    for (const rp of facts.oidc) {
      const refreshed = await app.inject({
        method: "POST",
        url: "/oidc/token",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(rp.clientId)}:${encodeURIComponent(rp.clientSecret)}`).toString("base64")}`,
        },
        payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: rp.refreshToken }).toString(),
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(refreshed.json().access_token).toBeTruthy();
    }
    expect((await scim(app, facts.scimToken, "/Users")).statusCode).toBe(200);
    const { certificate } = await app.db
      .selectFrom("saml_signing_keys")
      .select("certificate")
      .executeTakeFirstOrThrow();
    const metadata = (await app.inject({ url: "/saml/metadata" })).body;
    const body = certificate.replace(/-----[^-]+-----|\s/g, "");
    expect(metadata.replace(/\s/g, "")).toContain(body);
  });
});
