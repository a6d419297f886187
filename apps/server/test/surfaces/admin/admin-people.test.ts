import type { PersonDetail } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { kpiUserSchema, scim, scimToken, scimUser } from "../../support/scim.ts";

describe.each(aboveModelDatabases)("the console's people endpoints on %s", (kind) => {
  let t: TestApp;
  let admin: { person: { id: string }; cookie: string };
  const ids: Record<string, string> = {};
  let applicationId = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    admin = await addOperator(t.app, ["admin"]);
    const people = [
      { username: "opetrenko", fullName: "Олена Петренко", email: "o.petrenko@kpi.ua", studentId: "КВ-1234" },
      { username: "ipetrenko", fullName: "Іван Петренко", taxId: "1234567890", employeeId: "EMP-77" },
      { username: "mkoval", fullName: "Марія Коваль", email: "koval@lll.kpi.ua" },
    ];
    for (const person of people) ids[person.username] = (await addPerson(t.app, person, "correct horse 1")).id;
    applicationId = (await addApplication(t.app)).application.id;
    await grantAccess(t.app.db, ids.mkoval ?? "", applicationId);
  });
  afterAll(() => t.close());

  const search = async (query: string) => {
    const response = await t.app.inject({ url: `/api/admin/people?${query}`, headers: { cookie: admin.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { people: { username: string }[]; hasMore: boolean };
  };
  const usernames = async (query: string) => (await search(query)).people.map((p) => p.username);

  it("finds people by any part of name, username, e-mail, student or employee id, case and order aside", async () => {
    expect((await usernames("q=петрен")).sort()).toEqual(["ipetrenko", "opetrenko"]);
    expect(await usernames(`q=${encodeURIComponent("ПЕТРЕНКО олена")}`)).toEqual(["opetrenko"]);
    expect(await usernames("q=lll.kpi")).toEqual(["mkoval"]);
    expect(await usernames(`q=${encodeURIComponent("кв-12")}`)).toEqual(["opetrenko"]);
    expect(await usernames("q=emp-77")).toEqual(["ipetrenko"]);
    expect(await usernames("q=%25")).toEqual([]);
  });

  it("finds a tax id only when it is typed whole", async () => {
    expect(await usernames("q=1234567890")).toEqual(["ipetrenko"]);
    expect(await usernames("q=123456789")).toEqual([]);
  });

  it("filters by status and by application access", async () => {
    expect(await usernames(`app=${applicationId}`)).toEqual(["mkoval"]);
    await t.app.db
      .updateTable("users")
      .set({ status: "disabled" })
      .where("id", "=", ids.opetrenko ?? "")
      .execute();
    expect(await usernames(`q=${encodeURIComponent("петренко")}&status=disabled`)).toEqual(["opetrenko"]);
    expect(await usernames(`q=${encodeURIComponent("петренко")}&status=active`)).toEqual(["ipetrenko"]);
    await t.app.db
      .updateTable("users")
      .set({ status: "active" })
      .where("id", "=", ids.opetrenko ?? "")
      .execute();
  });

  it("pages 25 at a time and says whether more follow", async () => {
    for (let i = 0; i < 30; i += 1) {
      await t.app.db
        .insertInto("users")
        .values({ username: `bulk${i}`, full_name: `Масовий ${String(i).padStart(2, "0")}` })
        .execute();
    }
    const first = await search("q=bulk");
    const second = await search("q=bulk&page=2");
    expect(first.people).toHaveLength(25);
    expect(first.hasMore).toBe(true);
    expect(second.people).toHaveLength(5);
    expect(second.hasMore).toBe(false);
  });

  it("unlocks, ends sessions and grants access with an audit row naming the operator", async () => {
    const cookie = await signIn(t.app, "ipetrenko", "correct horse 1");
    const person = ids.ipetrenko ?? "";
    const as = { headers: { cookie: admin.cookie, origin: TEST_ORIGIN } };
    const ended = await postJson(t.app, `/api/admin/people/${person}/sessions/end`, {}, as);
    expect(ended.json()).toEqual({ done: true, count: 1 });
    expect((await t.app.inject({ url: "/api/user", headers: { cookie } })).statusCode).toBe(401);
    await postJson(t.app, `/api/admin/people/${person}/access/grant`, { applicationId }, as);
    expect(await usernames(`app=${applicationId}&q=petrenko`)).toEqual(["ipetrenko"]);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "actor_id", "application_id"])
      .where("user_id", "=", person)
      .where("actor_id", "is not", null)
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { event_type: "session_end", actor_id: admin.person.id, application_id: null },
      { event_type: "access_granted", actor_id: admin.person.id, application_id: applicationId },
    ]);
  });

  it("edits a profile under the rules of user create, and disabling ends the person's sessions", async () => {
    const person = ids.mkoval ?? "";
    const as = { headers: { cookie: admin.cookie } };
    const bad = await postJson(t.app, `/api/admin/people/${person}/profile`, { email: "not an address" }, as);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe("body.email");
    const taken = await postJson(t.app, `/api/admin/people/${person}/profile`, { taxId: "1234567890" }, as);
    expect(taken.json().code).toBe("admin.username_taken");
    const good = await postJson(t.app, `/api/admin/people/${person}/profile`, { studentId: "ІП-01" }, as);
    expect(good.json()).toMatchObject({ studentId: "ІП-01", email: "koval@lll.kpi.ua", hasTaxId: false });
    const cookie = await signIn(t.app, "mkoval", "correct horse 1");
    const disabled = await postJson(t.app, `/api/admin/people/${person}/status`, { status: "disabled" }, as);
    expect(disabled.json()).toEqual({ done: true, count: 1 });
    expect((await t.app.inject({ url: "/api/user", headers: { cookie } })).statusCode).toBe(401);
  });

  it("answers 404 for a person who does not exist", async () => {
    const response = await t.app.inject({
      url: "/api/admin/people/00000000-0000-4000-8000-000000000000",
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("admin.person_not_found");
  });

  it("gives and takes console roles from the CLI", async () => {
    const granted = await runCliOn(t.database.handle, ["role", "grant", "--username", "mkoval", "--role", "helpdesk"]);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("mkoval is now helpdesk");
    const bad = await runCliOn(t.database.handle, ["role", "grant", "--username", "mkoval", "--role", "root"]);
    expect(bad.code).toBe(2);
    const listed = await runCliOn(t.database.handle, ["role", "list", "--json"]);
    expect(listed.json<{ username: string; role: string }[]>()).toContainEqual(
      expect.objectContaining({ username: "mkoval", role: "helpdesk" }),
    );
    const revoked = await runCliOn(t.database.handle, ["role", "revoke", "--username", "mkoval", "--role", "helpdesk"]);
    expect(revoked.stdout).toContain("mkoval is no longer helpdesk");
  });

  it("says which people a source system provisions and which it removed (issue 36)", async () => {
    const token = await scimToken(t.app, "hr");
    const created = await scim(t.app, token, "/Users", {
      method: "POST",
      body: scimUser("hr.person", { externalId: "HR-1" }),
    });
    const scimId = created.json<{ id: string }>().id;
    const detail = async (id: string) =>
      (await t.app.inject({ url: `/api/admin/people/${id}`, headers: { cookie: admin.cookie } })).json<{
        provisioning: { managed: boolean; externalId: string | null; removedAt: string | null };
      }>().provisioning;
    expect(await detail(scimId)).toEqual({ managed: true, externalId: "HR-1", removedAt: null });
    expect(await detail(ids.opetrenko ?? "")).toEqual({ managed: false, externalId: null, removedAt: null });
    await scim(t.app, token, `/Users/${scimId}`, { method: "DELETE" });
    const removed = await detail(scimId);
    expect([removed.managed, typeof removed.removedAt]).toEqual([true, "string"]);
  });

  it("shows the records the HR system wrote, with units and source, and its changes in the history (issue 36)", async () => {
    await upsertUnit(t.app.db, {
      code: "FEL",
      kind: "faculty",
      nameUk: "ФЕЛ",
      nameEn: "Faculty of Electronics",
      parentCode: null,
    });
    const token = await scimToken(t.app, "records");
    const created = await scim(t.app, token, "/Users", {
      method: "POST",
      body: scimUser("hr.records", {
        [kpiUserSchema]: { studentRecords: [{ studentId: "FE-7", unit: "FEL", status: "studying" }] },
      }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    const detail = (
      await t.app.inject({ url: `/api/admin/people/${id}`, headers: { cookie: admin.cookie } })
    ).json<PersonDetail>();
    expect(detail.records).toEqual([
      {
        kind: "student",
        id: "FE-7",
        status: "studying",
        primary: true,
        unit: { code: "FEL", nameUk: "ФЕЛ", nameEn: "Faculty of Electronics" },
        title: "",
        source: "scim",
      },
    ]);
    expect(detail.signIns.map((event) => event.type)).toContain("scim_change");
  });
});
