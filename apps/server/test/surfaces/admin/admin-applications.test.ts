import type {
  AdminApplicationDetail,
  ApplicationAccess,
  ApplicationPeoplePage,
  BulkGrantReport,
} from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("the console's application screen on %s", (kind) => {
  let t: TestApp;
  let cookie = "";
  let operatorId = "";
  let appId = "";
  let fiot = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    const admin = await addOperator(t.app, ["admin"]);
    cookie = admin.cookie;
    operatorId = admin.person.id;
    appId = (await addApplication(t.app)).application.id;
    const kpi = (await upsertUnit(t.app.db, { code: "KPI", kind: "university", nameUk: "КПІ", parentCode: null })).unit;
    fiot = (await upsertUnit(t.app.db, { code: "FIOT", kind: "faculty", nameUk: "ФІОТ", parentCode: kpi.code })).unit
      .id;
    await upsertUnit(t.app.db, { code: "IP-21", kind: "group", nameUk: "ІП-21", parentCode: "FIOT" });
    for (const username of ["st.one", "st.two"]) {
      const person = await addPerson(t.app, { username, fullName: `Студент ${username}` }, "student passphrase 1");
      await replacePersonRecords(
        t.app.db,
        person.id,
        { students: [{ studentId: `${username}-card`, unitId: (await unitId("IP-21")) ?? fiot, status: "studying" }] },
        "test",
      );
    }
    const granted = await addPerson(
      t.app,
      { username: "granted.one", fullName: "Надано Один", email: "granted@kpi.ua" },
      "p 1 long pass",
    );
    await grantAccess(t.app.db, granted.id, appId);
    await addPerson(
      t.app,
      { username: "bulk.one", fullName: "Масовий Один", email: "Bulk.One@kpi.ua" },
      "p 1 long pass",
    );
    const sleeper = await addPerson(t.app, { username: "bulk.disabled", fullName: "Вимкнений" }, "p 1 long pass");
    await disableUser({ db: t.app.db, now: t.app.clock() }, sleeper.id);
  });
  afterAll(() => t.close());

  async function unitId(code: string) {
    return (await t.app.db.selectFrom("units").select("id").where("code", "=", code).executeTakeFirst())?.id;
  }

  function get(url: string) {
    return t.app.inject({ url, headers: { cookie } });
  }
  function post(url: string, body: unknown) {
    return t.app.inject({
      method: "POST",
      url,
      headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  }
  async function auditRows(type: string) {
    return t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("event_type", "=", type as "access_granted")
      .where("application_id", "=", appId)
      .orderBy("audit_events.id")
      .execute();
  }

  it("shows the whole application and edits it in a round trip, audited with the operator", async () => {
    const before = (await get(`/api/admin/applications/${appId}`)).json<AdminApplicationDetail>();
    expect(before).toMatchObject({ oidcEnabled: false, releaseTaxId: false, callbackUrls: [expect.any(String)] });
    const edit = {
      title: "Журнал",
      titleEn: "Gradebook",
      descriptionEn: "Marks",
      callbackUrls: ["https://journal.kpi.ua/cb", "http://localhost:8080/cb"],
      releaseTaxId: true,
      requireMfa: true,
      oidcEnabled: true,
      redirectUris: ["https://journal.kpi.ua/oidc"],
      postLogoutRedirectUris: ["https://journal.kpi.ua/bye"],
      scopes: ["openid", "profile"],
      publicClient: true,
      firstParty: true,
      backchannelLogoutUri: "https://journal.kpi.ua/logout",
      deviceFlow: true,
    };
    const saved = await post(`/api/admin/applications/${appId}`, edit);
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await get(`/api/admin/applications/${appId}`)).json<AdminApplicationDetail>();
    expect(after).toMatchObject(edit);
    const [row] = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("event_type", "=", "application_updated")
      .where("application_id", "=", appId)
      .orderBy("audit_events.id")
      .execute();
    expect(row?.actor_id).toBe(operatorId);
    expect(JSON.stringify(row?.details)).toContain("callbackUrls");
  });

  it("refuses a bad edit with a clear code and changes nothing, even when it fails half way", async () => {
    await post(`/api/admin/applications/${appId}`, { oidcEnabled: false });
    const before = (await get(`/api/admin/applications/${appId}`)).json<AdminApplicationDetail>();
    // The title is written before OpenID Connect is checked: the refusal must roll it back.
    const halfWay = await post(`/api/admin/applications/${appId}`, {
      title: "Змінено",
      redirectUris: [],
      oidcEnabled: true,
    });
    expect(halfWay.statusCode).toBe(400);
    expect(halfWay.json().code).toBe("app.oidc_needs_redirect_uri");
    const badUrl = await post(`/api/admin/applications/${appId}`, {
      callbackUrls: ["https://ok.kpi.ua/", "http://evil.example/cb"],
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({ code: "app.invalid_url", details: [{ path: "body.callbackUrls.1" }] });
    expect((await post(`/api/admin/applications/${appId}`, { callbackUrls: [] })).json().code).toBe(
      "app.callback_required",
    );
    expect((await post(`/api/admin/applications/${appId}`, { scopes: ["admin"] })).json().code).toBe(
      "app.unknown_scope",
    );
    expect((await post(`/api/admin/applications/${appId}`, { title: "  " })).json().code).toBe("app.title_required");
    expect((await get(`/api/admin/applications/${appId}`)).json()).toEqual(before);
    expect((await get("/api/admin/applications/00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
  });

  it("refuses a new application's bad field naming the field and why, and registers nothing (issue 37)", async () => {
    const good = { name: "timetable-new", title: "Розклад", callbackUrl: "https://timetable.kpi.ua/cb" };
    const refusals = [
      [{ ...good, name: "розклад" }, "app.invalid_name", "body.name"],
      [{ ...good, title: "   " }, "app.title_required", "body.title"],
      [{ ...good, callbackUrl: "http://timetable.kpi.ua/cb" }, "app.invalid_url", "body.callbackUrl"],
    ] as const;
    for (const [body, code, path] of refusals) {
      const refused = await post("/api/admin/applications", body);
      expect(refused.statusCode, code).toBe(400);
      expect(refused.json()).toMatchObject({ code, details: [{ path }] });
    }
    expect((await post("/api/admin/applications", good)).statusCode).toBe(200);
    const taken = await post("/api/admin/applications", good);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: "admin.application_name_taken", details: [{ path: "body.name" }] });
    const names = await t.app.db.selectFrom("applications").select("name").where("name", "=", good.name).execute();
    expect(names).toHaveLength(1);
  });

  it("`app update` goes through the same edit", async () => {
    const cli = await runCliOn(t.database.handle, [
      "app",
      "update",
      "--app",
      appId,
      "--title",
      "Не записано",
      "--redirect-uri",
      "http://evil.example/cb",
    ]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("--redirect-uri");
    expect((await get(`/api/admin/applications/${appId}`)).json().title).not.toBe("Не записано");
    const ok = await runCliOn(t.database.handle, ["app", "update", "--app", appId, "--title-en", "Marks", "--json"]);
    expect(ok.code).toBe(0);
    expect((await get(`/api/admin/applications/${appId}`)).json().titleEn).toBe("Marks");
  });

  it("adds and removes rules, and who has access follows", async () => {
    const people = async (q = "") =>
      (await get(`/api/admin/applications/${appId}/people?q=${q}`)).json<ApplicationPeoplePage>().people;
    expect((await people()).map((p) => p.username)).toEqual(["granted.one"]);
    expect((await post(`/api/admin/applications/${appId}/rules`, {})).json().code).toBe("app.rule_empty");
    expect((await post(`/api/admin/applications/${appId}/rules`, { unitCode: "NOPE" })).json().code).toBe(
      "app.unknown_unit",
    );
    const added = await post(`/api/admin/applications/${appId}/rules`, { affiliation: "student", unitCode: "FIOT" });
    expect(added.json()).toEqual({ done: true, count: 3 });
    expect(
      (await post(`/api/admin/applications/${appId}/rules`, { affiliation: "student", unitCode: "FIOT" })).statusCode,
    ).toBe(409);
    expect((await people()).map((p) => [p.username, p.via])).toEqual([
      ["granted.one", "grant"],
      ["st.one", "rule"],
      ["st.two", "rule"],
    ]);
    expect((await people("two")).map((p) => p.username)).toEqual(["st.two"]);
    const excluded = await post(`/api/admin/applications/${appId}/exclusions`, { username: "st.two" });
    expect(excluded.json().count).toBe(2);
    const access = (await get(`/api/admin/applications/${appId}/access`)).json<ApplicationAccess>();
    expect(access).toMatchObject({ people: 2, exclusions: [{ username: "st.two" }] });
    expect(access.rules).toMatchObject([{ affiliation: "student", unitCode: "FIOT", includeSubunits: true }]);
    const lifted = await post(`/api/admin/applications/${appId}/exclusions/remove`, {
      userId: access.exclusions[0]?.id,
    });
    expect(lifted.json()).toEqual({ done: true, count: 3 });
    const removed = await post(`/api/admin/applications/${appId}/rules/remove`, { ruleId: access.rules[0]?.id });
    expect(removed.json()).toEqual({ done: true, count: 1 });
    expect(
      (await post(`/api/admin/applications/${appId}/rules/remove`, { ruleId: access.rules[0]?.id })).statusCode,
    ).toBe(404);
    const ruleRows = [...(await auditRows("access_rule_added")), ...(await auditRows("access_rule_removed"))];
    expect(ruleRows.map((row) => row.actor_id)).toEqual([operatorId, operatorId]);
  });

  it("grants a pasted list in one go and reports each line", async () => {
    const list = "username\nbulk.one\nBULK.ONE@kpi.ua\ngranted.one\n\nnobody.here\nbad name here\nbulk.disabled\n";
    const response = await post(`/api/admin/applications/${appId}/access/bulk-grant`, { list });
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<BulkGrantReport>();
    expect(report.lines.map((line) => [line.line, line.value, line.outcome, line.disabled])).toEqual([
      [2, "bulk.one", "granted", false],
      [3, "BULK.ONE@kpi.ua", "already_had", false],
      [4, "granted.one", "already_had", false],
      [6, "nobody.here", "unknown_person", false],
      [7, "bad name here", "bad_line", false],
      [8, "bulk.disabled", "granted", true],
    ]);
    expect(report).toMatchObject({ granted: 2, alreadyHad: 2, refused: 2 });
    const rows = (await auditRows("access_granted")).filter((row) => JSON.stringify(row.details).includes("bulk"));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.actor_id === operatorId)).toBe(true);
    const csv = 'email;full name\r\n"granted@kpi.ua";Надано\r\n';
    const again = (
      await post(`/api/admin/applications/${appId}/access/bulk-grant`, { list: csv })
    ).json<BulkGrantReport>();
    expect(again.lines).toEqual([{ line: 2, value: "granted@kpi.ua", outcome: "already_had", disabled: false }]);
  });

  it("refuses more than 5,000 lines with 413 and grants nothing", async () => {
    const list = ["bulk.one", ...Array.from({ length: 5000 }, (_, i) => `person${i}`)].join("\n");
    const fresh = (await addApplication(t.app)).application.id;
    const response = await post(`/api/admin/applications/${fresh}/access/bulk-grant`, { list });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("app.bulk_grant_too_long");
    const grants = await t.app.db
      .selectFrom("user_applications")
      .selectAll()
      .where("application_id", "=", fresh)
      .execute();
    expect(grants).toEqual([]);
  });
});
