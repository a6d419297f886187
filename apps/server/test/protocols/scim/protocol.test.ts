import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeScimToken } from "../../../src/model/scim/tokens.ts";
import { scimBodyLimit } from "../../../src/protocols/scim/routes.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { kpiUserSchema, scim, scimErrorSchema, scimToken, scimUser } from "../../support/scim.ts";

interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

describe.each(aboveModelDatabases)("SCIM protocol, discovery and refusals on %s", (kind) => {
  let t: TestApp;
  let token = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "student-office");
  });
  afterAll(() => t.close());

  function expectScimError(
    response: { statusCode: number; json<T>(): T; headers: Record<string, unknown> },
    status: number,
    scimType?: string,
  ) {
    expect(response.statusCode).toBe(status);
    expect(String(response.headers["content-type"])).toContain("application/scim+json");
    const body = response.json<ScimErrorBody>();
    expect([body.schemas, body.status, body.scimType]).toEqual([[scimErrorSchema], String(status), scimType]);
    expect(body.detail.length).toBeGreaterThan(0);
  }

  it("describes itself: ServiceProviderConfig, ResourceTypes and Schemas with the KPI extensions", async () => {
    const config = (await scim(t.app, token, "/ServiceProviderConfig")).json<Record<string, { supported: boolean }>>();
    expect([
      config.patch?.supported,
      config.filter?.supported,
      config.etag?.supported,
      config.sort?.supported,
      config.bulk?.supported,
      config.changePassword?.supported,
    ]).toEqual([true, true, true, true, false, true]);
    const types = (await scim(t.app, token, "/ResourceTypes")).json<{
      totalResults: number;
      itemsPerPage: number;
      startIndex: number;
      Resources: { id: string; schemaExtensions: { schema: string }[] }[];
    }>();
    // RFC 7644 §3.4.2.4: itemsPerPage is the number of resources in this page.
    expect([types.totalResults, types.itemsPerPage, types.startIndex]).toEqual([2, 2, 1]);
    const schemas = (await scim(t.app, token, "/Schemas")).json<{
      totalResults: number;
      itemsPerPage: number;
      Resources: unknown[];
    }>();
    expect([schemas.itemsPerPage, schemas.totalResults]).toEqual([schemas.Resources.length, schemas.Resources.length]);
    expect(schemas.Resources.length).toBeGreaterThanOrEqual(5);
    expect(types.Resources.map((type) => [type.id, type.schemaExtensions.map((e) => e.schema)])).toEqual([
      ["User", [kpiUserSchema, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"]],
      ["Group", ["urn:ietf:params:scim:schemas:extension:kpi:2.0:Group"]],
    ]);
    const schema = (await scim(t.app, token, `/Schemas/${kpiUserSchema}`)).json<{ attributes: { name: string }[] }>();
    expect(schema.attributes.map((attribute) => attribute.name)).toEqual([
      "studentRecords",
      "employeePositions",
      "affiliations",
    ]);
    expect((await scim(t.app, token, "/ResourceTypes/User")).statusCode).toBe(200);
  });

  it("refuses a missing, wrong, revoked or non-SCIM credential with 401 in the SCIM error shape", async () => {
    const person = await addPerson(
      t.app,
      { username: "cookie-holder", fullName: "Cookie Holder" },
      "cookie passphrase 1",
    );
    const cookie = await signIn(t.app, person.username, "cookie passphrase 1");
    const other = await scimToken(t.app, "to-revoke");
    await revokeScimToken(t.app.db, "to-revoke", new Date());
    for (const headers of [
      {},
      { authorization: "Bearer kpiscim_wrong" },
      { authorization: `Bearer ${other}` },
      { authorization: `Basic ${Buffer.from(`x:${token}`).toString("base64")}` },
      { cookie },
    ]) {
      const response = await t.app.inject({ url: "/scim/v2/Users", headers });
      expectScimError(response, 401);
      expect(response.headers["www-authenticate"]).toContain("Bearer");
    }
  });

  it("refuses roles and entitlements by POST, PUT and PATCH instead of dropping them, and nothing changes", async () => {
    const created = await scim(t.app, token, "/Users", { method: "POST", body: scimUser("kept.as.is") });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    const attempts: { method: "POST" | "PUT" | "PATCH"; path: string; body: unknown }[] = [
      { method: "POST", path: "/Users", body: scimUser("with.roles", { roles: [{ value: "admin" }] }) },
      { method: "PUT", path: `/Users/${id}`, body: scimUser("kept.as.is", { entitlements: [{ value: "all" }] }) },
      ...[
        { op: "Add", path: 'roles[type eq "work"].value', value: "admin" },
        { op: "replace", value: { entitlements: [{ value: "all" }] } },
      ].map((operation) => ({
        method: "PATCH" as const,
        path: `/Users/${id}`,
        body: JSON.stringify({ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [operation] }),
      })),
    ];
    for (const attempt of attempts) {
      const answer = await scim(t.app, token, attempt.path, { method: attempt.method, body: attempt.body });
      expectScimError(answer, 400, "mutability");
      expect(answer.json<ScimErrorBody>().detail).toMatch(/'(roles|entitlements)' cannot be set over SCIM/);
    }
    const people = await t.app.db
      .selectFrom("users")
      .select(["username", "password_hash"])
      .where("username", "like", "with.%")
      .execute();
    expect(people).toEqual([]);
    const kept = await t.app.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(kept.password_hash).toBeNull();
  });

  it("answers malformed JSON, unknown attributes, bad filters, wrong types and wrong content types with 4xx, never 5xx", async () => {
    expectScimError(await scim(t.app, token, "/Users", { method: "POST", body: "{not json" }), 400, "invalidSyntax");
    expectScimError(await scim(t.app, token, "/Users", { method: "POST", body: "[1,2]" }), 400, "invalidSyntax");
    expectScimError(
      await scim(t.app, token, "/Users", { method: "POST", body: scimUser("u1", { nickname2: "x" }) }),
      400,
      "invalidSyntax",
    );
    const withRecord = (record: Record<string, unknown>) =>
      scim(t.app, token, "/Users", {
        method: "POST",
        body: scimUser("u1", {
          [kpiUserSchema]: { studentRecords: [{ studentId: "1", status: "studying", ...record }] },
        }),
      });
    expectScimError(await withRecord({ grade: 5 }), 400, "invalidSyntax");
    expectScimError(
      await scim(t.app, token, "/Users", { method: "POST", body: scimUser("u1", { active: "yes" }) }),
      400,
      "invalidValue",
    );
    // A status outside the model, a unit KPI ID does not know, a date not in YYYY-MM-DD.
    for (const record of [{ status: "expelled" }, { unit: "NOPE" }, { startsOn: "30.02.2026" }]) {
      expectScimError(await withRecord(record), 400, "invalidValue");
    }
    // Refused records leave no half-made person behind (one transaction).
    expect(await t.app.db.selectFrom("users").select("id").where("username", "=", "u1").execute()).toEqual([]);
    expectScimError(
      await scim(t.app, token, `/Users?filter=${encodeURIComponent('userName eq "a" and (')}`),
      400,
      "invalidFilter",
    );
    expectScimError(await scim(t.app, token, "/Users?count=-1"), 400, "invalidValue");
    expectScimError(
      await scim(t.app, token, "/Users", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }),
      415,
    );
    expectScimError(await scim(t.app, token, "/Users/not-a-uuid"), 404);
    expectScimError(await scim(t.app, token, "/Bulk", { method: "POST", body: {} }), 404);
  });

  it("refuses an oversized body with 413", async () => {
    const huge = scimUser("huge", { displayName: "x".repeat(scimBodyLimit + 1) });
    expectScimError(await scim(t.app, token, "/Users", { method: "POST", body: huge }), 413);
  });

  it("treats filter injection as data: quotes, SQL and operators inside a value match nothing", async () => {
    await scim(t.app, token, "/Users", { method: "POST", body: scimUser("victim") });
    for (const filter of [
      'userName eq "victim\\" or userName pr"',
      "userName eq \"x' or '1'='1\"",
      'userName eq "x"; drop table users; --"',
      'id eq "00000000-0000-0000-0000-000000000000\' or 1=1 --"',
    ]) {
      const response = await scim(t.app, token, `/Users?filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode, filter).toBeLessThan(500);
      if (response.statusCode === 200) expect(response.json<{ totalResults: number }>().totalResults, filter).toBe(0);
    }
    expect((await t.app.db.selectFrom("users").select("id").execute()).length).toBeGreaterThan(0);
  });

  it("slows an address that keeps presenting wrong tokens (429)", async () => {
    const statuses: number[] = [];
    const guess = () =>
      t.app.inject({
        url: "/scim/v2/Users",
        headers: { authorization: "Bearer kpiscim_guess", "x-forwarded-for": "203.0.113.9" },
        remoteAddress: "198.51.100.77",
      });
    for (let i = 0; i < 24; i += 1) statuses.push((await guess()).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
    const refused = await guess();
    expectScimError(refused, 429);
    expect(refused.headers["retry-after"]).toBe("60");
    // Another address with the right token is served meanwhile.
    expect((await scim(t.app, token, "/Users")).statusCode).toBe(200);
  });

  it("answers a client past SCIM_REQUESTS_PER_MINUTE 429 while another client is served", async () => {
    const limited = await createTestApp(kind, { SCIM_REQUESTS_PER_MINUTE: "3" }, { protocols: ["scim"] });
    try {
      const busy = await scimToken(limited.app, "busy-source");
      const other = await scimToken(limited.app, "other-source");
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await scim(limited.app, busy, "/Users")).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await scim(limited.app, busy, "/Users");
      expectScimError(refused, 429);
      expect(refused.headers["retry-after"]).toBe("60");
      expect((await scim(limited.app, other, "/Users")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("makes, lists and revokes tokens with the CLI, showing the token once and keeping only its hash", async () => {
    const created = await runCliOn(t.database.handle, ["scim", "token", "create", "--name", "hr-cli", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const { token: made } = created.json<{ token: string }>();
    expect((await scim(t.app, made, "/Users")).statusCode).toBe(200);
    const row = await t.app.db
      .selectFrom("scim_tokens")
      .selectAll()
      .where("name", "=", "hr-cli")
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(made);
    expect((await runCliOn(t.database.handle, ["scim", "token", "create", "--name", "hr-cli"])).code).toBe(1);
    const listed = await runCliOn(t.database.handle, ["scim", "token", "list", "--json"]);
    expect(listed.stdout).not.toContain(made);
    expect(listed.json<{ name: string }[]>().map((token) => token.name)).toContain("hr-cli");
    expect((await runCliOn(t.database.handle, ["scim", "token", "revoke", "--name", "hr-cli"])).code).toBe(0);
    expectScimError(await scim(t.app, made, "/Users"), 401);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["reason", "details"])
      .where("event_type", "=", "scim_change")
      .where("reason", "like", "scim.token_%")
      .orderBy("audit_events.id")
      .execute();
    expect(
      audit.filter((entry) => JSON.stringify(entry.details).includes("hr-cli")).map((entry) => entry.reason),
    ).toEqual(["scim.token_created", "scim.token_revoked"]);
  });
});
