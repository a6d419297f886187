import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import {
  addApplication,
  addPerson,
  grantAccess,
  manualClock,
  sessionCookieFrom,
  signIn,
} from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const student = {
  username: "o.kovalenko",
  fullName: "Олена Коваленко",
  email: "olena@lll.kpi.ua",
  taxId: "3012345678",
  studentId: "KV-2431",
};
const password = "a long passphrase, no rules";

function ticketFrom(location: string | undefined): string {
  const ticket = new URL(location ?? "", "http://x").searchParams.get("ticketId");
  if (!ticket) throw new Error(`no ticketId in ${location}`);
  return ticket;
}

describe.each(aboveModelDatabases)("password sign-in and the connected-apps loop on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let appA: Awaited<ReturnType<typeof addApplication>>;
  let appB: Awaited<ReturnType<typeof addApplication>>;
  let personId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"], clock: clock.now });
    const person = await addPerson(t.app, student, password);
    personId = person.id;
    appA = await addApplication(t.app, "https://a.example.edu/login/callback?from=kpi", { releaseTaxId: true });
    appB = await addApplication(t.app, "https://b.example.edu/callback");
    await grantAccess(t.app.db, person.id, appA.application.id);
    await grantAccess(t.app.db, person.id, appB.application.id);
  });
  afterAll(() => t.close());

  const openApp = (cookie: string, appId: string) =>
    t.app.inject({ url: `/api/app-redirect?appId=${appId}`, headers: { cookie } });

  it("signs in, shows the person, opens an app and hands the ticket over exactly once", async () => {
    const auth = await postJson(t.app, "/api/auth", { username: "O.Kovalenko", password });
    expect(auth.statusCode).toBe(200);
    const { sessionId } = auth.json();
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const internal = await postJson(t.app, "/api/auth/internal", { sessionId });
    expect(internal.statusCode).toBe(200);
    const setCookie = String(internal.headers["set-cookie"]);
    expect(setCookie).toMatch(/^kpi_id_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    const cookie = sessionCookieFrom(internal);

    const me = await t.app.inject({ url: "/user", headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.headers["cache-control"]).toBe("no-store");
    expect(me.json()).toEqual({
      fullName: "Олена Коваленко",
      data: {
        NAME: "Олена Коваленко",
        EMAIL: "olena@lll.kpi.ua",
        TAX_ID: "3012345678",
        STUDENT_ID: "KV-2431",
        EMPLOYEE_ID: "",
        AUTH_METHOD: "PASSWORD",
      },
      applications: expect.arrayContaining([
        {
          id: appA.application.id,
          name: appA.application.name,
          title: appA.application.title,
          description: "A connected campus site",
        },
      ]),
    });
    expect((await t.app.inject({ url: "/api/user", headers: { cookie } })).json()).toEqual(me.json());

    const redirect = await openApp(cookie, appA.application.id);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toMatch(
      /^https:\/\/a\.example\.edu\/login\/callback\?from=kpi&ticketId=[A-Za-z0-9_-]{43}$/,
    );
    const ticketId = ticketFrom(redirect.headers.location);

    const query = new URLSearchParams({ ticketId, appId: appA.application.id, appSecret: appA.secret });
    const exchange = await t.app.inject({ url: `/api/ticket?${query}` });
    expect(exchange.statusCode).toBe(200);
    const body = exchange.json();
    expect(body).toEqual({
      id: expect.any(String),
      created: clock.now().toISOString(),
      applicationId: appA.application.id,
      traceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      data: {
        USER_ID: personId,
        NAME: "Олена Коваленко",
        // Application A was registered with the tax id released (new applications are not, issue 19).
        TAX_ID: "3012345678",
        STUDENT_ID: "KV-2431",
        EMPLOYEE_ID: "",
        AUTH_METHOD: "PASSWORD",
        TRACE_ID: body.traceId,
        TIME_STAMP: clock.now().toISOString(),
        AUTH_AMR: "pwd",
        AUTH_ACR: "https://refeds.org/profile/sfa",
        // The operator's student id became the person's primary student record (issue 21).
        AFFILIATIONS: "student,member",
        STUDENT_STATUS: "studying",
        STUDENT_UNIT: "",
        STUDENT_FACULTY: "",
        EMPLOYEE_STATUS: "",
        EMPLOYEE_UNIT: "",
        EMPLOYEE_FACULTY: "",
      },
    });

    const replay = await t.app.inject({ url: `/api/ticket?${query}` });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("ticket.invalid");
  });

  it("appends ticketId with '?' to a callback without a query, and accepts Basic and POST credentials", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const basic = `Basic ${Buffer.from(`${appB.application.id}:${appB.secret}`).toString("base64")}`;

    const first = await openApp(cookie, appB.application.id);
    expect(first.headers.location).toMatch(/^https:\/\/b\.example\.edu\/callback\?ticketId=[^&]+$/);
    const viaHeader = await t.app.inject({
      url: `/api/ticket?ticketId=${ticketFrom(first.headers.location)}`,
      headers: { authorization: basic },
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json().data.NAME).toBe("Олена Коваленко");

    const second = await openApp(cookie, appB.application.id);
    const viaJson = await t.app.inject({
      method: "POST",
      url: "/api/ticket",
      headers: { "content-type": "application/json" },
      payload: { ticketId: ticketFrom(second.headers.location), appId: appB.application.id, appSecret: appB.secret },
    });
    expect(viaJson.statusCode).toBe(200);

    const third = await openApp(cookie, appB.application.id);
    const viaForm = await t.app.inject({
      method: "POST",
      url: "/api/ticket",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
      payload: new URLSearchParams({ ticketId: ticketFrom(third.headers.location) }).toString(),
    });
    expect(viaForm.statusCode).toBe(200);
  });

  it("refuses app A's ticket to app B, and a wrong secret, with one and the same answer", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const ticketId = ticketFrom((await openApp(cookie, appA.application.id)).headers.location);
    const attempt = (appId: string, appSecret: string) =>
      t.app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });

    const byB = await attempt(appB.application.id, appB.secret);
    const wrongSecret = await attempt(appA.application.id, appB.secret);
    const unknownApp = await attempt("00000000-0000-4000-8000-000000000000", appA.secret);
    const unknownTicket = await t.app.inject({
      url: `/api/ticket?${new URLSearchParams({ ticketId: "x".repeat(43), appId: appA.application.id, appSecret: appA.secret })}`,
    });
    const nothing = await t.app.inject({ url: "/api/ticket" });
    for (const refused of [byB, wrongSecret, unknownApp, unknownTicket, nothing]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe(byB.body);
    }
    expect(byB.json().code).toBe("ticket.invalid");
    // Refusals did not burn it: app A still redeems its own ticket.
    expect((await attempt(appA.application.id, appA.secret)).statusCode).toBe(200);
  });

  it("refuses an expired ticket and an expired grant", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const ticketId = ticketFrom((await openApp(cookie, appA.application.id)).headers.location);
    const auth = await postJson(t.app, "/api/auth", { username: student.username, password });
    clock.advance(61);
    const late = await t.app.inject({
      url: `/api/ticket?${new URLSearchParams({ ticketId, appId: appA.application.id, appSecret: appA.secret })}`,
    });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe("ticket.invalid");
    const lateGrant = await postJson(t.app, "/api/auth/internal", { sessionId: auth.json().sessionId });
    expect(lateGrant.statusCode).toBe(401);
    expect(lateGrant.json().code).toBe("auth.grant_invalid");
    expect(lateGrant.headers["set-cookie"]).toBeUndefined();
  });

  it("accepts a grant once only", async () => {
    const auth = await postJson(t.app, "/api/auth", { username: student.username, password });
    const { sessionId } = auth.json();
    expect((await postJson(t.app, "/api/auth/internal", { sessionId })).statusCode).toBe(200);
    const again = await postJson(t.app, "/api/auth/internal", { sessionId });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe("auth.grant_invalid");
  });

  it("ends the session at logout", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const logout = await postJson(t.app, "/api/auth/logout", undefined, { headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect(String(logout.headers["set-cookie"])).toMatch(/^kpi_id_session=;.*Expires=Thu, 01 Jan 1970/);
    const me = await t.app.inject({ url: "/user", headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ code: "auth.not_authenticated", message: "Потрібно увійти." });
  });

  it("stops a disabled person's cookie and their unredeemed tickets", async () => {
    const other = await addPerson(t.app, { username: "to-disable", fullName: "Тимчасовий" }, password);
    await grantAccess(t.app.db, other.id, appA.application.id);
    const cookie = await signIn(t.app, "to-disable", password);
    const ticketId = ticketFrom((await openApp(cookie, appA.application.id)).headers.location);
    await disableUser({ db: t.app.db, now: t.app.clock() }, other.id);
    expect((await t.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(401);
    const exchange = await t.app.inject({
      url: `/api/ticket?${new URLSearchParams({ ticketId, appId: appA.application.id, appSecret: appA.secret })}`,
    });
    expect(exchange.statusCode).toBe(401);
    const again = await postJson(t.app, "/api/auth", { username: "to-disable", password });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe("auth.invalid_credentials");
  });

  it("writes the loop to the audit table without passwords, secrets or tax ids", async () => {
    // In the order written: the first exchange is application A's (the loop above), later ones B's. Without the
    // order PostgreSQL may hand back any of them first.
    const events = await t.app.db
      .selectFrom("audit_events")
      .selectAll()
      .where("user_id", "=", personId)
      .orderBy("id")
      .execute();
    const kinds = new Set(events.map((e) => `${e.event_type}:${e.result}`));
    for (const expected of [
      "sign_in:success",
      "session_start:success",
      "app_redirect:success",
      "ticket_exchange:success",
      "logout:success",
    ]) {
      expect(kinds).toContain(expected);
    }
    // Written by the statements that consume the grant and the ticket: the row still names who, how and where.
    const exchanged = events.find((e) => e.event_type === "ticket_exchange" && e.result === "success");
    expect(exchanged).toMatchObject({ application_id: appA.application.id, auth_method: "PASSWORD" });
    expect(exchanged?.ip).toBeTruthy();
    const started = events.find((e) => e.event_type === "session_start" && e.result === "success");
    expect(started).toMatchObject({ auth_method: "PASSWORD", application_id: null });
    const everything = JSON.stringify(
      await t.app.db.selectFrom("audit_events").selectAll().orderBy("audit_events.id").execute(),
    );
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(appA.secret);
    expect(everything).not.toContain(student.taxId);
  });
});
