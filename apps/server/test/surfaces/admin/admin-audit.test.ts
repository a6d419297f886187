import type { AdminApplication, AuditPage } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("console audit log on %s", (kind) => {
  let t: TestApp;
  let cookie = "";
  let operatorId = "";
  let personId = "";
  let applicationId = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    const admin = await addOperator(t.app, ["admin"]);
    cookie = admin.cookie;
    operatorId = admin.person.id;
    personId = (await addPerson(t.app, { username: "audited", fullName: "Аудитована Особа" }, "audited pass 1")).id;
    applicationId = (await addApplication(t.app)).application.id;
    const other = (await addPerson(t.app, { username: "other", fullName: "Інша Особа" }, "other pass 1")).id;
    // 30 of the person's sign-ins over three days, one failed sign-in with a hostile reason, an operator's unlock.
    for (let i = 0; i < 30; i += 1) {
      await recordAuditEvent(t.app.db, {
        type: "sign_in",
        result: "success",
        authMethod: "PASSWORD",
        userId: personId,
        applicationId,
        ip: i % 2 === 0 ? "192.0.2.10" : "198.51.100.7",
        occurredAt: new Date(Date.UTC(2026, 2, 1 + (i % 3), 8, i)),
      });
    }
    await recordAuditEvent(t.app.db, {
      type: "sign_in",
      result: "failure",
      userId: other,
      reason: '=HYPERLINK("http://evil.example","click")',
      ip: "203.0.113.5",
      occurredAt: new Date(Date.UTC(2026, 2, 4, 9, 0)),
    });
    await recordAuditEvent(t.app.db, {
      type: "account_unlocked",
      result: "success",
      userId: personId,
      actorId: operatorId,
      reason: "operator",
      occurredAt: new Date(Date.UTC(2026, 2, 5, 9, 0)),
    });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: { cookie } });
  const page = async (query: string) => {
    const response = await get(`/api/admin/audit?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditPage>();
  };

  it("walks the person's events newest first in keyset pages, each row once", async () => {
    const seen: string[] = [];
    let after: string | null = "";
    let pages = 0;
    while (after !== null) {
      const result: AuditPage = await page(`person=audited&limit=7${after ? `&after=${after}` : ""}`);
      seen.push(...result.events.map((event) => event.occurredAt));
      after = result.next;
      pages += 1;
    }
    expect(pages).toBe(5);
    expect(seen).toHaveLength(31);
    expect(new Set(seen).size).toBe(31);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("filters by operator, type, result, application, day range and address", async () => {
    const byActor = await page(`actor=${operatorId}`);
    expect(byActor.events.map((event) => [event.type, event.actor?.username, event.person?.username])).toEqual([
      ["account_unlocked", expect.stringMatching(/^operator/), "audited"],
    ]);
    expect((await page("result=failure")).events.map((event) => event.reason)).toEqual([
      '=HYPERLINK("http://evil.example","click")',
    ]);
    expect((await page(`type=sign_in&app=${applicationId}&limit=200`)).events).toHaveLength(30);
    const oneDay = await page("from=2026-03-02&to=2026-03-02&limit=200");
    expect(oneDay.events).toHaveLength(10);
    expect(oneDay.events.every((event) => event.occurredAt.startsWith("2026-03-02"))).toBe(true);
    expect((await page("ip=198.51.100.7&limit=200")).events).toHaveLength(15);
    expect((await page("person=nobody-has-this-name")).events).toEqual([]);
  });

  it("names an event's application with its English title too, as the console's list does (issue 37)", async () => {
    await t.app.db.updateTable("applications").set({ title_en: "Timetable" }).where("id", "=", applicationId).execute();
    const [event] = (await page(`app=${applicationId}&limit=1`)).events;
    expect(event?.application).toMatchObject({ id: applicationId, titleEn: "Timetable" });
    const list = (await get("/api/admin/applications")).json<{ applications: AdminApplication[] }>();
    expect(list.applications.find((application) => application.id === applicationId)?.titleEn).toBe("Timetable");
  });

  it("refuses a filter it cannot read without a 5xx", async () => {
    for (const query of ["type=made_up", "from=0000-01-01", "from=2026-02-30", "after=99999999999999999999", "app=x"]) {
      expect((await get(`/api/admin/audit?${query}`)).statusCode, query).toBe(400);
    }
  });

  it("exports the filtered set as CSV, with formula-looking cells defused", async () => {
    const response = await get("/api/admin/audit/export?result=failure");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="kpi-id-audit-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = response.body.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "occurred_at,event_type,result,method,person_username,person_name,actor_username,application,reason,ip",
    );
    expect(lines[1]).toBe(
      `2026-03-04T09:00:00.000Z,sign_in,failure,,other,Інша Особа,,,"'=HYPERLINK(""http://evil.example"",""click"")",203.0.113.5`,
    );
    const all = await get(`/api/admin/audit/export?person=${personId}`);
    expect(all.body.trimEnd().split("\r\n")).toHaveLength(32);
  });

  it("writes an audit row naming the operator and the filters of each export", async () => {
    await get("/api/admin/audit/export?result=failure&from=2026-03-01");
    const exports = await page("type=audit_exported");
    expect(exports.events[0]).toMatchObject({ type: "audit_exported", result: "success" });
    expect(exports.events[0]?.actor?.id).toBe(operatorId);
    const [row] = await t.app.db
      .selectFrom("audit_events")
      .select(["details", "ip"])
      .where("event_type", "=", "audit_exported")
      .orderBy("id", "desc")
      .limit(1)
      .execute();
    expect(row?.details).toEqual({ filters: { result: "failure", from: "2026-03-01" } });
    expect(row?.ip).toBe("127.0.0.1");
  });
});
