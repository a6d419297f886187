import { developerApplicationSchema, developerApplicationsSchema, integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { addOperator, sessionCookieOf } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import {
  addMember,
  addStudent,
  decideQueued,
  queuedRequestId,
  registerApplication,
  sampleApplication,
} from "../../support/developers.ts";

describe.each(databaseKinds)("the developers' API (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { DEVELOPER_MAX_APPLICATIONS: "2" }, { protocols: [] });
  });
  afterAll(() => t.close());

  // Testers need no password (none signs in here): rows written directly keep the test quick.
  const addTesterRow = async (username: string) => {
    await t.app.db
      .insertInto("users")
      .values({ username, full_name: username, email: `${username}@kpi.ua` })
      .execute();
    return username;
  };
  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });

  it("registers an application in testing, shows the secret once, lists it and audits it", async () => {
    const { cookie, person } = await addStudent(t.app);
    const created = await registerApplication(t.app, cookie);
    expect(created.secret).toMatch(/^\S{32,}$/);
    expect(created.application).toMatchObject({ lifecycle: "testing", suspended: false, title: "Розклад" });
    expect(created.application.owners).toEqual([{ username: expect.any(String), you: true }]);
    expect(JSON.stringify(created.application)).not.toContain(person.id);
    const detail = await get(`/api/developers/applications/${created.application.id}`, cookie);
    expect(detail.body).not.toContain(created.secret);
    developerApplicationSchema.parse(detail.json());
    const list = developerApplicationsSchema.parse((await get("/api/developers/applications", cookie)).json());
    expect(list).toMatchObject({ allowed: true, limit: 2, applications: [{ id: created.application.id }] });
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select("event_type")
      .where("application_id", "=", created.application.id)
      .orderBy("audit_events.id")
      .execute();
    expect(audited.map((row) => row.event_type)).toEqual(["application_created"]);
  });

  it("refuses a person whose affiliation may not register, and the limit per person", async () => {
    const outsider = await addPerson(t.app, { username: "guest-dev", fullName: "Гість" }, "guest passphrase 1");
    const guestCookie = await sessionCookieOf(t.app, outsider.id, "PASSWORD");
    const refused = await post("/api/developers/applications", sampleApplication, guestCookie);
    expect(refused.json()).toMatchObject({ code: "developer.not_allowed" });
    expect(
      developerApplicationsSchema.parse((await get("/api/developers/applications", guestCookie)).json()).allowed,
    ).toBe(false);
    const { cookie } = await addStudent(t.app);
    await registerApplication(t.app, cookie);
    await registerApplication(t.app, cookie);
    const third = await post("/api/developers/applications", sampleApplication, cookie);
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({ code: "developer.limit_reached" });
  });

  it.each([
    ["a wildcard", "https://*.example.edu/callback"],
    ["a name before the host", "https://kpi.ua@evil.example/callback"],
    ["http off localhost", "http://timetable.example.edu/callback"],
    ["javascript:", "javascript:alert(1)"],
    ["a fragment", "https://timetable.example.edu/callback#x"],
    ["a backslash the parser rewrites", "https://timetable.example.edu\\@evil.example/"],
    ["a relative address", "/callback"],
  ])("refuses a redirect URI with %s", async (_, uri) => {
    const { cookie } = await addStudent(t.app);
    const response = await post("/api/developers/applications", { ...sampleApplication, redirectUris: [uri] }, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toMatch(/^(developer\.(invalid|insecure)_uri|request\.validation_failed)$/);
  });

  it("hides another person's application behind the same 404 as a missing one", async () => {
    const owner = await addStudent(t.app);
    const other = await addStudent(t.app);
    const { application } = await registerApplication(t.app, owner.cookie);
    const paths = ["", "/health"].map((tail) => `/api/developers/applications/${application.id}${tail}`);
    for (const path of paths) expect((await get(path, other.cookie)).statusCode).toBe(404);
    for (const [tail, body] of [
      ["", { title: "Моє" }],
      ["/secret", {}],
      ["/testers", { person: other.username }],
      ["/owners", { person: other.username }],
      ["/review", { purpose: "Щоб забрати чужий застосунок", dataNeeded: "Усе, що можна взяти" }],
    ] as const) {
      const response = await post(`/api/developers/applications/${application.id}${tail}`, body, other.cookie);
      expect(response.json(), tail).toMatchObject({ code: "developer.application_not_found" });
    }
    const missing = await get("/api/developers/applications/00000000-0000-4000-8000-000000000000", other.cookie);
    expect(missing.json()).toMatchObject({ code: "developer.application_not_found" });
  });

  it("invites testers by username or e-mail up to 25, co-owners, and never the last owner away", async () => {
    const owner = await addStudent(t.app);
    const { application } = await registerApplication(t.app, owner.cookie);
    const url = `/api/developers/applications/${application.id}`;
    // 23 testers from before invitations (rows that stay as they are) and two waiting invitations make 25.
    for (let index = 0; index < 23; index += 1) {
      const tester = await addTesterRow(`tester-${application.id.slice(0, 6)}-${index}`);
      const { id } = await t.app.db
        .selectFrom("users")
        .select("id")
        .where("username", "=", tester)
        .executeTakeFirstOrThrow();
      await t.app.db
        .insertInto("application_testers")
        .values({ application_id: application.id, user_id: id })
        .execute();
    }
    for (const named of [await addTesterRow(`invited-${application.id.slice(0, 6)}`), "someone@kpi.ua"]) {
      const invited = await post(`${url}/testers`, { person: named }, owner.cookie);
      expect(invited.statusCode).toBe(200);
    }
    const detail = developerApplicationSchema.parse((await get(url, owner.cookie)).json());
    expect(detail.testers).toHaveLength(23);
    expect(detail.invitations.map((each) => each.role)).toEqual(["tester", "tester"]);
    const extra = await addStudent(t.app, "tester");
    const over = await post(`${url}/testers`, { person: extra.username }, owner.cookie);
    expect(over.json()).toMatchObject({ code: "developer.tester_limit" });
    await addMember(t.app, application.id, "owner", owner, extra);
    expect(developerApplicationSchema.parse((await get(url, owner.cookie)).json()).owners).toHaveLength(2);
    expect((await get(url, extra.cookie)).statusCode).toBe(200);
    await post(`${url}/owners/remove`, { username: extra.username }, owner.cookie);
    expect((await get(url, extra.cookie)).statusCode).toBe(404);
    const last = await post(`${url}/owners/remove`, { username: owner.username }, owner.cookie);
    expect(last.json()).toMatchObject({ code: "developer.last_owner" });
  });

  it("rotates the secret only after a recent sign-in", async () => {
    const owner = await addStudent(t.app);
    const { application, secret } = await registerApplication(t.app, owner.cookie);
    const rotated = await post(`/api/developers/applications/${application.id}/secret`, {}, owner.cookie);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).not.toBe(secret);
    const old = new Date(Date.now() - 3 * 3600_000);
    await t.app.db.updateTable("sessions").set({ created_at: old }).where("user_id", "=", owner.person.id).execute();
    const stale = await post(`/api/developers/applications/${application.id}/secret`, {}, owner.cookie);
    expect(stale.json()).toMatchObject({ code: "auth.reauth_required" });
  });

  it("goes live through review keeping its development address, then approved in the console", async () => {
    const owner = await addStudent(t.app);
    const { application } = await registerApplication(t.app, owner.cookie);
    const url = `/api/developers/applications/${application.id}`;
    const review = { purpose: "Розклад занять для студентів", dataNeeded: "Ім'я, щоб привітатися" };
    // http://localhost stays through review and after approval (issue 60): only this computer reaches it.
    await post(
      url,
      { callbackUrls: ["https://timetable.example.edu/callback", "http://localhost:5173/callback"] },
      owner.cookie,
    );
    const requested = developerApplicationSchema.parse((await post(`${url}/review`, review, owner.cookie)).json());
    expect(requested).toMatchObject({ lifecycle: "in_review", review: { status: "pending" } });
    expect((await post(`${url}/review`, review, owner.cookie)).json().code).toBe("developer.review_not_possible");
    // What the operator reviews is what goes live: nothing changes while the request waits (issue 56).
    const duringReview = await post(url, { redirectUris: ["http://localhost:3000/cb"] }, owner.cookie);
    expect(duringReview.statusCode).toBe(409);
    expect(duringReview.json()).toMatchObject({ code: "developer.under_review" });
    const admin = await addOperator(t.app, ["admin"]);
    const queue = await get("/api/admin/reviews", admin.cookie);
    expect(queue.json().reviews).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          applicationId: application.id,
          purpose: review.purpose,
          // The edit above named only the callbacks: everything else the owner wrote stays.
          description: "Розклад занять групи",
          descriptionEn: "A group's timetable",
          redirectUris: ["https://timetable.example.edu/oidc"],
          scopes: ["openid", "profile"],
        }),
      ]),
    );
    const rejected = await decideQueued(t.app, admin.cookie, application.id, {
      decision: "rejected",
      reason: "Немає політики",
    });
    expect(rejected.statusCode).toBe(200);
    expect((await get(url, owner.cookie)).json()).toMatchObject({
      lifecycle: "rejected",
      review: { status: "rejected", reason: "Немає політики" },
    });
    await post(`${url}/review`, review, owner.cookie);
    const requestId = await queuedRequestId(t.app, admin.cookie, application.id);
    await post(`/api/admin/reviews/${application.id}`, { decision: "approved", requestId }, admin.cookie);
    expect((await get(url, owner.cookie)).json()).toMatchObject({ lifecycle: "live", review: { status: "approved" } });
    const again = await post(`/api/admin/reviews/${application.id}`, { decision: "approved", requestId }, admin.cookie);
    expect(again.json()).toMatchObject({ code: "admin.review_not_pending" });
    expect((await get(url, owner.cookie)).json()).toMatchObject({
      callbackUrls: ["https://timetable.example.edu/callback", "http://localhost:5173/callback"],
    });
    const liveLoopback = await post(url, { redirectUris: ["http://127.0.0.1:3000/cb"] }, owner.cookie);
    expect(liveLoopback.statusCode).toBe(200);
    const liveHttp = await post(url, { redirectUris: ["http://timetable.example.edu/cb"] }, owner.cookie);
    expect(liveHttp.json()).toMatchObject({
      code: "developer.insecure_uri",
      details: [{ path: "body.redirectUris.0", message: "http_not_loopback: http://timetable.example.edu/cb" }],
    });
    const rules = await t.app.db
      .selectFrom("access_rules")
      .select("status")
      .where("application_id", "=", application.id)
      .execute();
    expect(rules.map((rule) => rule.status).sort()).toEqual(["active", "studying"]);
  });

  it("approval checks the addresses again: one stored before the rule keeps the request pending", async () => {
    const owner = await addStudent(t.app);
    const { application } = await registerApplication(t.app, owner.cookie);
    const url = `/api/developers/applications/${application.id}`;
    await post(url, { callbackUrls: ["https://timetable.example.edu/callback"] }, owner.cookie);
    const review = { purpose: "Розклад занять групи", dataNeeded: "Ім'я, щоб привітатися" };
    expect((await post(`${url}/review`, review, owner.cookie)).statusCode).toBe(200);
    // An address no rule allows (written by hand in the database, or by an older release).
    await t.app.db
      .updateTable("applications")
      .set({ redirect_uris: ["http://timetable.example.edu/cb"] })
      .where("id", "=", application.id)
      .execute();
    const admin = await addOperator(t.app, ["admin"]);
    const approved = await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" });
    expect(approved.statusCode).toBe(400);
    expect(approved.json()).toMatchObject({ code: "developer.insecure_uri" });
    expect((await get(url, owner.cookie)).json()).toMatchObject({
      lifecycle: "in_review",
      review: { status: "pending" },
    });
  });

  it("keeps the review queue and suspension to admins", async () => {
    const helpdesk = await addOperator(t.app, ["helpdesk"]);
    const student = await addStudent(t.app);
    expect((await get("/api/admin/reviews", helpdesk.cookie)).statusCode).toBe(403);
    expect((await get("/api/admin/reviews", student.cookie)).statusCode).toBe(403);
    const { application } = await registerApplication(t.app, student.cookie);
    const suspend = await post(
      `/api/admin/applications/${application.id}/suspension`,
      { suspended: true },
      student.cookie,
    );
    expect(suspend.statusCode).toBe(403);
  });

  it("shows an empty health view for a new application", async () => {
    const owner = await addStudent(t.app);
    const { application } = await registerApplication(t.app, owner.cookie);
    const health = integrationHealthSchema.parse(
      (await get(`/api/developers/applications/${application.id}/health`, owner.cookie)).json(),
    );
    expect(health.signInsPerDay).toHaveLength(30);
    expect(health.failures).toEqual([]);
  });
});
