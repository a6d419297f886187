import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { kpiUserSchema, patchOpSchema, scim, scimToken, scimUser } from "../../support/scim.ts";

interface ScimUserBody {
  id: string;
  userName: string;
  active: boolean;
  meta: { version: string; lastModified: string };
  [kpiUserSchema]?: { studentRecords?: { studentId: string; status: string }[]; affiliations?: string[] };
}
interface ListBody {
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: ScimUserBody[];
}

const q = (filter: string, extra = "") => `/Users?filter=${encodeURIComponent(filter)}${extra}`;

describe.each(aboveModelDatabases)("SCIM Users (RFC 7644 §3.3–3.7) on %s", (kind) => {
  let t: TestApp;
  let token = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "hr");
    await upsertUnit(t.app.db, { code: "FIOT", kind: "faculty", nameUk: "ФІОТ", parentCode: null });
  });
  afterAll(() => t.close());

  async function create(userName: string, extra: Record<string, unknown> = {}): Promise<ScimUserBody> {
    const response = await scim(t.app, token, "/Users", { method: "POST", body: scimUser(userName, extra) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ScimUserBody>();
  }

  const patch = (id: string, Operations: unknown[], headers: Record<string, string> = {}) =>
    scim(t.app, token, `/Users/${id}`, { method: "PATCH", body: { schemas: [patchOpSchema], Operations }, headers });

  it("creates a person with records (source scim), answers Location and ETag, and audits with the token's name", async () => {
    const response = await scim(t.app, token, "/Users", {
      method: "POST",
      body: scimUser("scim-created", {
        externalId: "hr-1",
        [kpiUserSchema]: { studentRecords: [{ studentId: "KV-1", unit: "FIOT", status: "studying" }] },
      }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers["content-type"]).toContain("application/scim+json");
    const body = response.json<ScimUserBody>();
    expect(response.headers.location).toBe(`${TEST_PUBLIC_URL}/scim/v2/Users/${body.id}`);
    expect(response.headers.etag).toBe(body.meta.version);
    expect(body[kpiUserSchema]?.affiliations).toEqual(["student", "member"]);
    const records = await t.app.db.selectFrom("student_records").selectAll().where("user_id", "=", body.id).execute();
    expect(records.map((record) => [record.student_id, record.source])).toEqual([["KV-1", "scim"]]);
    const user = await t.app.db.selectFrom("users").selectAll().where("id", "=", body.id).executeTakeFirstOrThrow();
    expect([user.student_id, user.scim_external_id, user.password_hash]).toEqual(["KV-1", "hr-1", null]);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("user_id", "=", body.id)
      .orderBy("audit_events.id")
      .execute();
    expect(rows.map((row) => [row.event_type, row.reason, row.details])).toEqual([
      ["scim_change", "scim.user_created", { actor: "scim:hr" }],
    ]);
  });

  it("filters with userName eq, meta.lastModified gt, and, or (scimmy's parser), and sorts and pages", async () => {
    const [a, b, c] = [await create("filter-a"), await create("filter-b"), await create("filter-c")];
    // filter-a changed long ago: a "changed since" sync must not see it.
    await t.app.db
      .updateTable("users")
      .set({ updated_at: new Date("2020-01-01T00:00:00Z") })
      .where("id", "=", a.id)
      .execute();
    const names = async (url: string) =>
      (await scim(t.app, token, url)).json<ListBody>().Resources.map((r) => r.userName);
    expect(await names(q('userName eq "filter-b"'))).toEqual(["filter-b"]);
    // userName is not case-exact (RFC 7643 §4.1.1).
    expect(await names(q('userName eq "FILTER-B" or userName sw "Filter-C"', "&sortBy=userName"))).toEqual([
      "filter-b",
      "filter-c",
    ]);
    expect(await names(q('userName eq "filter-a" or userName eq "filter-c"', "&sortBy=userName"))).toEqual([
      "filter-a",
      "filter-c",
    ]);
    expect(
      await names(q('meta.lastModified gt "2021-01-01T00:00:00Z" and userName sw "filter-"', "&sortBy=userName")),
    ).toEqual(["filter-b", "filter-c"]);
    expect(await names(q('userName sw "filter-" and not (userName eq "filter-b")', "&sortBy=userName"))).toEqual([
      "filter-a",
      "filter-c",
    ]);
    const page = (
      await scim(t.app, token, q('userName sw "filter-"', "&sortBy=userName&sortOrder=descending&startIndex=2&count=1"))
    ).json<ListBody>();
    expect([page.totalResults, page.startIndex, page.itemsPerPage, page.Resources.map((r) => r.id)]).toEqual([
      3,
      2,
      1,
      [b.id],
    ]);
    const all = (await scim(t.app, token, "/Users?sortBy=userName&startIndex=2&count=2")).json<ListBody>();
    const everyone = (await scim(t.app, token, "/Users?sortBy=userName")).json<ListBody>();
    expect(all.totalResults).toBe(everyone.totalResults);
    expect(all.Resources.map((r) => r.id)).toEqual(everyone.Resources.slice(1, 3).map((r) => r.id));
    expect(everyone.Resources.map((r) => r.id)).toContain(c.id);
  });

  it("PATCH adds, replaces and removes entries of multi-valued attributes", async () => {
    const person = await create("patched", {
      [kpiUserSchema]: { studentRecords: [{ studentId: "P-1", status: "studying" }] },
    });
    const added = await patch(person.id, [
      { op: "add", path: `${kpiUserSchema}:studentRecords`, value: [{ studentId: "P-2", status: "studying" }] },
      { op: "add", path: `${kpiUserSchema}:employeePositions`, value: [{ employeeId: "E-1", status: "active" }] },
    ]);
    expect(added.statusCode, added.body).toBe(200);
    const replaced = await patch(person.id, [
      { op: "replace", path: `${kpiUserSchema}:studentRecords[studentId eq "P-1"].status`, value: "graduated" },
      { op: "replace", path: "emails", value: [{ value: "new@example.com", primary: true }] },
    ]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    const removed = await patch(person.id, [
      { op: "remove", path: `${kpiUserSchema}:studentRecords[studentId eq "P-2"]` },
      { op: "remove", path: `${kpiUserSchema}:employeePositions` },
    ]);
    expect(removed.statusCode, removed.body).toBe(200);
    const records = await t.app.db.selectFrom("student_records").selectAll().where("user_id", "=", person.id).execute();
    expect(records.map((r) => [r.student_id, r.status])).toEqual([["P-1", "graduated"]]);
    const positions = await t.app.db
      .selectFrom("employee_positions")
      .selectAll()
      .where("user_id", "=", person.id)
      .execute();
    expect(positions).toEqual([]);
    const user = await t.app.db.selectFrom("users").selectAll().where("id", "=", person.id).executeTakeFirstOrThrow();
    expect([user.email, user.employee_id]).toEqual(["new@example.com", null]);
    expect(removed.json<ScimUserBody>()[kpiUserSchema]?.affiliations).toEqual(["alum"]);
  });

  it("PUT replaces the person and leaves a record list it does not name", async () => {
    const person = await create("replaced", {
      [kpiUserSchema]: { studentRecords: [{ studentId: "R-1", status: "studying" }] },
    });
    const response = await scim(t.app, token, `/Users/${person.id}`, {
      method: "PUT",
      body: scimUser("replaced-renamed", { name: { formatted: "Нове Ім'я" } }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const user = await t.app.db.selectFrom("users").selectAll().where("id", "=", person.id).executeTakeFirstOrThrow();
    expect([user.username, user.full_name, user.student_id]).toEqual(["replaced-renamed", "Нове Ім'я", "R-1"]);
  });

  it("answers 409 uniqueness for a taken userName, on POST and on PUT", async () => {
    const first = await create("unique-one");
    await create("unique-two");
    const again = await scim(t.app, token, "/Users", { method: "POST", body: scimUser("UNIQUE-ONE") });
    expect([again.statusCode, again.json<{ scimType: string }>().scimType]).toEqual([409, "uniqueness"]);
    const renamed = await scim(t.app, token, `/Users/${first.id}`, { method: "PUT", body: scimUser("unique-two") });
    expect([renamed.statusCode, renamed.json<{ status: string }>().status]).toEqual([409, "409"]);
  });

  it("answers 412 when If-Match names another version, and acts when it names the current one", async () => {
    const person = await create("versioned");
    const stale = 'W/"stale"';
    expect(
      (
        await scim(t.app, token, `/Users/${person.id}`, {
          method: "PUT",
          body: scimUser("versioned"),
          headers: { "if-match": stale },
        })
      ).statusCode,
    ).toBe(412);
    expect(
      (await patch(person.id, [{ op: "replace", path: "displayName", value: "X" }], { "if-match": stale })).statusCode,
    ).toBe(412);
    expect(
      (await scim(t.app, token, `/Users/${person.id}`, { method: "DELETE", headers: { "if-match": stale } }))
        .statusCode,
    ).toBe(412);
    const current = await scim(t.app, token, `/Users/${person.id}`);
    const ok = await patch(person.id, [{ op: "replace", path: "name.formatted", value: "Версія Друга" }], {
      "if-match": String(current.headers.etag),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers.etag).not.toBe(current.headers.etag);
  });

  it("deactivation (active: false) ends the person's sessions, as disable does; DELETE hides them, POST brings them back", async () => {
    const person = await addPerson(t.app, { username: "leaver", fullName: "Особа Leaver" }, "leaver passphrase 1");
    const cookie = await signIn(t.app, "leaver", "leaver passphrase 1");
    expect((await t.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(200);
    const response = await patch(person.id, [{ op: "replace", path: "active", value: false }]);
    expect([response.statusCode, response.json<ScimUserBody>().active]).toEqual([200, false]);
    expect((await t.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(401);
    const sessions = await t.app.db.selectFrom("sessions").select("id").where("user_id", "=", person.id).execute();
    expect(sessions).toEqual([]);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("details")
      .where("user_id", "=", person.id)
      .where("event_type", "=", "scim_change")
      .orderBy("audit_events.id")
      .execute();
    expect(audit.map((row) => row.details)).toEqual([{ actor: "scim:hr", deactivated: true }]);

    expect((await scim(t.app, token, `/Users/${person.id}`, { method: "DELETE" })).statusCode).toBe(204);
    expect((await scim(t.app, token, `/Users/${person.id}`)).statusCode).toBe(404);
    expect((await scim(t.app, token, q('userName eq "leaver"'))).json<ListBody>().totalResults).toBe(0);
    const back = await scim(t.app, token, "/Users", { method: "POST", body: scimUser("leaver") });
    expect([back.statusCode, back.json<ScimUserBody>().id, back.json<ScimUserBody>().active]).toEqual([
      201,
      person.id,
      true,
    ]);
  });
});
