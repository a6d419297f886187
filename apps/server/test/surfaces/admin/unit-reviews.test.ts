import { developerApplicationSchema, type ReviewDecision, reviewQueueSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { grantUnitRole } from "../../../src/model/users/unit-roles.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { addStudent, registerApplication } from "../../support/developers.ts";
import { startTestMail } from "../../support/mail.ts";

/**
 * Issue 79: a unit admin decides the reviews of their units' applications. Their approval is a first one that
 * waits for central IT, unless the operators let the unit's decisions be final (`unit reviews --final yes`, on the
 * unit or one above it); their rejection is final; another unit's requests do not exist for them.
 */
describe("a unit admin's decisions on their units' reviews", () => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  let admin: string;
  let adminId: string;
  let facultyAdmin: { cookie: string; username: string };
  let otherAdmin: string;
  const units = {} as Record<"FICT" | "CS" | "FEL", string>;

  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(aboveModelDatabase, { SMTP_URL: mail.smtpUrl }, { protocols: [] });
    const unit = async (code: string, kind: "faculty" | "department", parentCode: string | null) =>
      (await upsertUnit(t.app.db, { code, kind, nameUk: `${code} укр`, nameEn: code, parentCode })).unit.id;
    units.FICT = await unit("FICT", "faculty", null);
    units.CS = await unit("FICT-CS", "department", "FICT");
    units.FEL = await unit("FEL", "faculty", null);
    const central = await addOperator(t.app, ["admin"]);
    admin = central.cookie;
    adminId = central.person.id;
    const faculty = await addOperator(t.app, []);
    await grantUnitRole(t.app.db, faculty.person.id, units.FICT, "unit_admin");
    facultyAdmin = { cookie: faculty.cookie, username: faculty.person.username };
    const other = await addOperator(t.app, []);
    await grantUnitRole(t.app.db, other.person.id, units.FEL, "unit_admin");
    otherAdmin = other.cookie;
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const queue = async (cookie: string) =>
    reviewQueueSchema.parse((await t.app.inject({ url: "/api/admin/reviews", headers: { cookie } })).json()).reviews;
  const lifecycleOf = async (id: string, owner: string) =>
    developerApplicationSchema.parse(
      (await t.app.inject({ url: `/api/developers/applications/${id}`, headers: { cookie: owner } })).json(),
    ).lifecycle;

  /** A community application of the department, asking to go live; its request as the queue shows it. */
  async function departmentRequest(title: string) {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title,
      titleEn: title,
      callbackUrls: ["https://app.example.edu/callback"],
    });
    const asked = await post(
      `/api/developers/applications/${application.id}/review`,
      { purpose: "Розклад кафедри для студентів", dataNeeded: "Ім'я та група студента" },
      owner.cookie,
    );
    expect(asked.statusCode).toBe(200);
    const assigned = await post(`/api/admin/applications/${application.id}/unit`, { unitId: units.CS }, admin);
    expect(assigned.statusCode).toBe(200);
    const request = (await queue(facultyAdmin.cookie)).find((item) => item.applicationId === application.id);
    if (!request) throw new Error("the faculty's admin does not see the department's request");
    return { id: application.id, owner: owner.cookie, ownerId: owner.person.id, requestId: request.requestId };
  }
  const decide = (id: string, decision: ReviewDecision, cookie: string) =>
    post(`/api/admin/reviews/${id}`, decision, cookie);

  it("takes a unit admin's approval as a first one: the request waits, and admins read which unit approved it", async () => {
    const request = await departmentRequest("Кафедральний розклад");
    const approval: ReviewDecision = { decision: "approved", requestId: request.requestId };
    expect((await decide(request.id, approval, facultyAdmin.cookie)).statusCode).toBe(200);
    expect(await lifecycleOf(request.id, request.owner)).toBe("in_review");
    const waiting = (await queue(admin)).find((item) => item.applicationId === request.id);
    expect(waiting?.unitApproval).toMatchObject({
      unit: { id: units.CS, code: "FICT-CS", nameUk: "FICT-CS укр", nameEn: "FICT-CS" },
      by: facultyAdmin.username,
    });
    expect(waiting?.unitFinal).toBe(false);
    const again = await decide(request.id, approval, facultyAdmin.cookie);
    expect([again.statusCode, again.json().code]).toEqual([409, "admin.review_awaits_central"]);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "reason", "unit_id"])
      .where("application_id", "=", request.id)
      .where("event_type", "=", "application_reviewed")
      .orderBy("audit_events.id")
      .execute();
    expect(audit).toEqual([{ event_type: "application_reviewed", reason: "unit_approved", unit_id: units.CS }]);
    expect((await decide(request.id, approval, admin)).statusCode).toBe(200);
    expect(await lifecycleOf(request.id, request.owner)).toBe("live");
  });

  it("tells the owners of a unit's first approval by mail, in each owner's language: which unit, and that central IT decide next", async () => {
    for (const language of ["uk", "en"] as const) {
      const request = await departmentRequest(`Кафедральна анкета ${language}`);
      const address = `owner-${language}@example.org`;
      await t.app.db
        .updateTable("users")
        .set({ email: address, verified_email: address, language })
        .where("id", "=", request.ownerId)
        .execute();
      const before = mail.inbox.messages.length;
      const approval: ReviewDecision = { decision: "approved", requestId: request.requestId };
      expect((await decide(request.id, approval, facultyAdmin.cookie)).statusCode).toBe(200);
      const told = await mail.inbox.waitFor((message) => message.to.includes(address), before);
      if (language === "uk") {
        expect(told.subject).toBe("Застосунок схвалено підрозділом: Кафедральна анкета uk");
        expect(told.text).toContain("Адміністратор підрозділу FICT-CS (FICT-CS укр) схвалив «Кафедральна анкета uk»");
        expect(told.text).toContain("центральна ІТ-служба");
      } else {
        expect(told.subject).toBe("Your application is approved by its unit: Кафедральна анкета en");
        expect(told.text).toContain("The admin of unit FICT-CS (FICT-CS) approved “Кафедральна анкета en”");
        expect(told.text).toContain("waits for KPI ID's central IT");
      }
      expect(await lifecycleOf(request.id, request.owner)).toBe("in_review");
    }
  });

  it("lets a unit admin reject: the owners read the reason, and nothing waits for central IT", async () => {
    const request = await departmentRequest("Кафедральний журнал");
    const reason = "Потрібна політика конфіденційності";
    const rejected = await decide(
      request.id,
      { decision: "rejected", requestId: request.requestId, reason },
      facultyAdmin.cookie,
    );
    expect(rejected.statusCode).toBe(200);
    expect(await lifecycleOf(request.id, request.owner)).toBe("rejected");
    expect((await queue(admin)).some((item) => item.applicationId === request.id)).toBe(false);
  });

  it("answers another unit's admin as if the application did not exist", async () => {
    const request = await departmentRequest("Кафедральні оголошення");
    const approval: ReviewDecision = { decision: "approved", requestId: request.requestId };
    const foreign = await decide(request.id, approval, otherAdmin);
    const missing = await decide(crypto.randomUUID(), approval, otherAdmin);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, "app.not_found"]);
    expect(foreign.body).toBe(missing.body);
    expect((await queue(otherAdmin)).some((item) => item.applicationId === request.id)).toBe(false);
    expect(await lifecycleOf(request.id, request.owner)).toBe("in_review");
  });

  it("makes a unit admin's approval final where the operators let the faculty decide, for its departments too", async () => {
    const set = await runCliOn(t.database.handle, ["unit", "reviews", "--code", "FICT", "--final", "yes"]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("FICT");
    // Who may make an application live changed: the console's audit says so, naming the unit.
    const audit = await t.app.inject({ url: "/api/admin/audit?type=unit_reviews_set", headers: { cookie: admin } });
    expect(audit.json().events).toMatchObject([{ type: "unit_reviews_set", unit: { code: "FICT" } }]);
    const request = await departmentRequest("Кафедральна бібліотека");
    expect((await queue(facultyAdmin.cookie)).find((item) => item.applicationId === request.id)?.unitFinal).toBe(true);
    const approved = await decide(
      request.id,
      { decision: "approved", requestId: request.requestId },
      facultyAdmin.cookie,
    );
    expect(approved.statusCode).toBe(200);
    expect(await lifecycleOf(request.id, request.owner)).toBe("live");
    // A live application's change is decided by the unit alike.
    const edited = await post(
      `/api/developers/applications/${request.id}`,
      { title: "Бібліотека кафедри" },
      request.owner,
    );
    expect(edited.statusCode).toBe(200);
    const change = (await queue(facultyAdmin.cookie)).find((item) => item.applicationId === request.id);
    expect(change?.kind).toBe("change");
    const applied = await decide(
      request.id,
      { decision: "approved", requestId: change?.requestId ?? "" },
      facultyAdmin.cookie,
    );
    expect(applied.statusCode).toBe(200);
    const detail = await t.app.inject({
      url: `/api/developers/applications/${request.id}`,
      headers: { cookie: request.owner },
    });
    expect(detail.json().title).toBe("Бібліотека кафедри");
    expect((await runCliOn(t.database.handle, ["unit", "reviews", "--code", "FICT", "--final", "no"])).code).toBe(0);
    const later = await departmentRequest("Кафедральний календар");
    expect((await queue(admin)).find((item) => item.applicationId === later.id)?.unitFinal).toBe(false);
    expect((await runCliOn(t.database.handle, ["unit", "reviews", "--code", "FICT", "--final", "maybe"])).code).toBe(2);
  });

  it("lets an admin make a unit's reviews final from the console, audited as the CLI's change; no one else may", async () => {
    const helpdesk = (await addOperator(t.app, ["helpdesk"])).cookie;
    const setFinal = (final: boolean, cookie: string, unitId = units.FICT) =>
      post(`/api/admin/units/${unitId}/reviews-final`, { final }, cookie);
    // A unit admin does not make their own approvals final: for them the call does not exist; helpdesk is refused.
    const own = await setFinal(true, facultyAdmin.cookie);
    expect([own.statusCode, own.json().code]).toEqual([404, "request.not_found"]);
    const byHelpdesk = await setFinal(true, helpdesk);
    expect([byHelpdesk.statusCode, byHelpdesk.json().code]).toEqual([403, "admin.forbidden"]);
    const nowhere = await setFinal(true, admin, crypto.randomUUID());
    expect([nowhere.statusCode, nowhere.json().code]).toEqual([404, "admin.unit_not_found"]);
    const listed = async () =>
      (await t.app.inject({ url: "/api/admin/units", headers: { cookie: admin } }))
        .json()
        .units.filter((unit: { reviewsFinal: boolean }) => unit.reviewsFinal)
        .map((unit: { code: string }) => unit.code);
    expect(await listed()).toEqual([]);

    expect((await setFinal(true, admin)).json()).toEqual({ done: true });
    expect((await setFinal(true, admin)).json()).toEqual({ done: false });
    expect(await listed()).toEqual(["FICT"]);
    // The faculty's department decides finally now: the unit admin's approval makes the application live.
    const request = await departmentRequest("Кафедральний довідник");
    const approval: ReviewDecision = { decision: "approved", requestId: request.requestId };
    expect((await decide(request.id, approval, facultyAdmin.cookie)).statusCode).toBe(200);
    expect(await lifecycleOf(request.id, request.owner)).toBe("live");

    expect((await setFinal(false, admin)).json()).toEqual({ done: true });
    expect(await listed()).toEqual([]);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "reason", "unit_id", "details", "actor_id"])
      .where("event_type", "=", "unit_reviews_set")
      .where("reason", "=", "console")
      .orderBy("id")
      .execute();
    expect(rows).toEqual(
      [true, false].map((reviewsFinal) => ({
        event_type: "unit_reviews_set",
        reason: "console",
        unit_id: units.FICT,
        details: { code: "FICT", reviewsFinal },
        actor_id: adminId,
      })),
    );
  });
});
