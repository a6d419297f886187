import {
  connectedApplicationsSchema,
  integrationHealthSchema,
  type TicketConsentDetails,
  ticketConsentDetailsSchema,
  ticketConsentPath,
} from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addApplication, grantAccess, manualClock } from "../support/campus.ts";
import { databaseKinds } from "../support/databases.ts";
import { addStudent, registerApplication } from "../support/developers.ts";
import {
  answerTicketConsent,
  consentRequestOf,
  liveCommunityApplication,
  openAgreeing,
} from "../support/ticket-consent.ts";

/**
 * Issue 56, point 2: the ticket path handed a person's identity to any registered application at once. A
 * community application (registered on the developers' page) now gets a ticket only after the person agrees,
 * and its server learns nothing before; operators' own applications keep the old flow byte for byte.
 */
describe.each(databaseKinds)("attacks on the ticket path's consent (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
  });
  afterAll(() => t.close());

  const open = (cookie: string, query: Record<string, string>) =>
    t.app.inject({ url: `/api/app-redirect?${new URLSearchParams(query)}`, headers: { cookie } });
  const redeem = (appId: string, appSecret: string, ticketId: string) =>
    t.app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });
  const ticketOf = (location: string) => new URL(location).searchParams.get("ticketId") ?? "";
  const ticketsOf = async (applicationId: string) =>
    (await t.app.db.selectFrom("tickets").select("user_id").where("application_id", "=", applicationId).execute())
      .length;

  it("gives no ticket without consent: the community application's server learns nothing until the person agrees", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "victim");
    const { application, secret } = await liveCommunityApplication(t.app, owner, [student], "grab.example.edu");

    const redirect = await open(student.cookie, { appId: application.id, state: "s-1" });
    expect(redirect.statusCode).toBe(302);
    const id = consentRequestOf(redirect);
    expect(id).toBeDefined();
    expect(String(redirect.headers.location)).not.toContain("grab.example.edu");
    expect(String(redirect.headers.location)).not.toContain("ticketId");
    expect(await ticketsOf(application.id)).toBe(0);
    // The application's server, guessing: the waiting request's id is no ticket.
    expect((await redeem(application.id, secret, String(id))).statusCode).toBe(401);

    // The screen tells what the ticket carries, that operators reviewed it, and who stands behind it.
    const details = await t.app.inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    const shown: TicketConsentDetails = ticketConsentDetailsSchema.parse(details.json());
    expect(shown).toMatchObject({
      application: { title: "Спільнота grab.example.edu" },
      data: ["identifier", "name", "recordIds", "roles", "signInMethod"],
      reviewed: true,
      publisher: { homePageUrl: "https://grab.example.edu/", privacyPolicyUrl: "https://grab.example.edu/privacy" },
    });
    expect(shown.publisher.owners.map((person) => person.name)).toEqual([owner.person.full_name]);

    const agreed = await answerTicketConsent(t.app, student.cookie, String(id), true);
    const location = agreed.outcome().redirectTo;
    expect(location).toMatch(/^https:\/\/grab\.example\.edu\/callback\?ticketId=[^&]+&state=s-1$/);
    const exchanged = await redeem(application.id, secret, ticketOf(location));
    expect(exchanged.statusCode).toBe(200);
    expect(exchanged.json().data).toMatchObject({ USER_ID: student.person.id, TAX_ID: "" });

    // Answered once: the same request cannot mint a second ticket.
    expect((await answerTicketConsent(t.app, student.cookie, String(id), true)).statusCode).toBe(404);
    // Remembered: the next visit goes straight through.
    const again = await open(student.cookie, { appId: application.id });
    expect(String(again.headers.location)).toMatch(/^https:\/\/grab\.example\.edu\/callback\?ticketId=/);
  });

  it("keeps the application, state and callback on the server: nothing can be swapped between the screen and the answer", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const other = await addStudent(t.app, "other");
    const a = await liveCommunityApplication(t.app, owner, [student, other], "a.example.edu");
    const b = await liveCommunityApplication(t.app, owner, [student, other], "b.example.edu");

    // Consent for A does not cover B.
    await openAgreeing(t.app, student.cookie, { appId: a.application.id });
    const toB = await open(student.cookie, { appId: b.application.id, redirectUri: "https://b.example.edu/other" });
    const idB = String(consentRequestOf(toB));
    expect(idB).not.toBe("undefined");

    // Another person cannot read or answer it (as unknown as a made-up id).
    expect(
      (await t.app.inject({ url: `${ticketConsentPath}/${idB}`, headers: { cookie: other.cookie } })).statusCode,
    ).toBe(404);
    expect((await answerTicketConsent(t.app, other.cookie, idB, true)).statusCode).toBe(404);
    const made = "00000000-0000-4000-8000-000000000000";
    expect((await answerTicketConsent(t.app, student.cookie, made, true)).statusCode).toBe(404);
    expect((await answerTicketConsent(t.app, student.cookie, "not-a-uuid", true)).statusCode).toBe(400);

    // The answer carries nothing but allow: an appId, state or redirectUri in its body is not used.
    const answer = await postJson(
      t.app,
      `${ticketConsentPath}/${idB}`,
      { allow: true, appId: a.application.id, redirectUri: "https://evil.example/cb", state: "x" },
      { headers: { cookie: student.cookie } },
    );
    expect(answer.json().redirectTo).toMatch(/^https:\/\/b\.example\.edu\/other\?ticketId=[^&]+$/);
    // The ticket is B's: A's credentials cannot redeem it.
    const ticket = ticketOf(answer.json().redirectTo);
    expect((await redeem(a.application.id, a.secret, ticket)).statusCode).toBe(401);
    // An unregistered callback is refused before any screen, as before.
    const evil = await open(student.cookie, { appId: b.application.id, redirectUri: "https://evil.example/cb" });
    // The apps page names the address tried (issue 60): the browser goes to KPI ID's own page, never to it.
    const tried = new URLSearchParams({ appId: b.application.id, redirectUri: "https://evil.example/cb" });
    expect(evil.headers.location).toBe(`/uk/apps?${tried}&refused=redirectUri`);
  });

  it("refuses a forged or cross-site answer, and the waiting request stays for the person's own", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "forged.example.edu");
    const id = String(consentRequestOf(await open(student.cookie, { appId: application.id })));
    const url = `${ticketConsentPath}/${id}`;
    const cookie = student.cookie;
    const attempts = [
      // A cross-site page's fetch or form: a foreign Origin, none at all, or a form body.
      {
        headers: { cookie, "content-type": "application/json", origin: "https://evil.example" },
        payload: '{"allow":true}',
      },
      { headers: { cookie, "content-type": "application/json" }, payload: '{"allow":true}' },
      {
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
        payload: "allow=true",
      },
      { headers: { cookie, "content-type": "text/plain", origin: "http://localhost:3000" }, payload: '{"allow":true}' },
    ];
    for (const attempt of attempts) {
      const answer = await t.app.inject({ method: "POST", url, ...attempt });
      // Refused by the Origin check (JSON), or earlier for a body no page of this site sends.
      const json = attempt.headers["content-type"] === "application/json";
      expect(json ? [403] : [400, 403, 415]).toContain(answer.statusCode);
      expect(answer.json().code).toMatch(json ? /^request\.csrf_rejected$/ : /^request\./);
    }
    // A GET never answers.
    expect((await t.app.inject({ url: `${url}?allow=true`, headers: { cookie } })).json()).not.toHaveProperty(
      "redirectTo",
    );
    expect(await ticketsOf(application.id)).toBe(0);
    expect(await t.app.db.selectFrom("ticket_consents").select("user_id").execute()).not.toContainEqual({
      user_id: student.person.id,
    });
    // Without a session there is nothing to answer either.
    expect((await postJson(t.app, url, { allow: true })).statusCode).toBe(401);
    expect((await answerTicketConsent(t.app, cookie, id, true)).outcome().redirectTo).toContain("ticketId=");
  });

  it("asks again after the person revokes it on the account page, and when the application comes to receive more", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "revoked.example.edu");
    expect((await openAgreeing(t.app, student.cookie, { appId: application.id })).asked).toBe(true);

    const listed = await t.app.inject({ url: "/api/account/applications", headers: { cookie: student.cookie } });
    expect(connectedApplicationsSchema.parse(listed.json()).applications).toContainEqual({
      id: application.id,
      title: "Спільнота revoked.example.edu",
      scopes: [],
      ticketData: ["identifier", "name", "recordIds", "roles", "signInMethod"],
    });
    const revoke = await postJson(
      t.app,
      "/api/account/applications/revoke",
      { applicationId: application.id },
      { headers: { cookie: student.cookie } },
    );
    expect(revoke.statusCode).toBe(200);
    const afterRevoke = await open(student.cookie, { appId: application.id });
    expect(consentRequestOf(afterRevoke)).toBeDefined();

    // Agreed again; then operators allow it the tax id: what was agreed no longer covers it.
    await answerTicketConsent(t.app, student.cookie, String(consentRequestOf(afterRevoke)), true);
    expect(String((await open(student.cookie, { appId: application.id })).headers.location)).toContain("ticketId=");
    await t.app.db.updateTable("applications").set({ release_tax_id: true }).where("id", "=", application.id).execute();
    const wider = await open(student.cookie, { appId: application.id });
    const id = String(consentRequestOf(wider));
    const details = await t.app.inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    expect(details.json().data).toContain("taxId");
  });

  it("records only what the screen named: operators releasing the tax id before the answer means asking again", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "widened.example.edu");
    const id = String(consentRequestOf(await open(student.cookie, { appId: application.id, state: "w-1" })));
    const screen = await t.app.inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    expect(ticketConsentDetailsSchema.parse(screen.json()).data).not.toContain("taxId");

    await t.app.db.updateTable("applications").set({ release_tax_id: true }).where("id", "=", application.id).execute();
    const agreed = await answerTicketConsent(t.app, student.cookie, id, true);
    // No ticket and no consent: the browser goes back through the app redirect, which asks with the tax id.
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${application.id}&state=w-1`);
    expect(await ticketsOf(application.id)).toBe(0);
    const consents = await t.app.db
      .selectFrom("ticket_consents")
      .select("data")
      .where("user_id", "=", student.person.id)
      .where("application_id", "=", application.id)
      .execute();
    expect(consents).toEqual([]);
    const again = await open(student.cookie, { appId: application.id, state: "w-1" });
    const askedAgain = String(consentRequestOf(again));
    const wider = await t.app.inject({
      url: `${ticketConsentPath}/${askedAgain}`,
      headers: { cookie: student.cookie },
    });
    expect(ticketConsentDetailsSchema.parse(wider.json()).data).toContain("taxId");
    const answered = await answerTicketConsent(t.app, student.cookie, askedAgain, true);
    expect(answered.outcome().redirectTo).toMatch(/^https:\/\/widened\.example\.edu\/callback\?ticketId=/);
  });

  it("keeps one waiting request per person and application however often its link is opened", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "reopened.example.edu");
    const ids: string[] = [];
    for (let opened = 0; opened < 50; opened++) {
      ids.push(String(consentRequestOf(await open(student.cookie, { appId: application.id }))));
    }
    const waiting = await t.app.db
      .selectFrom("ticket_consent_requests")
      .select("id")
      .where("user_id", "=", student.person.id)
      .where("application_id", "=", application.id)
      .execute();
    expect(waiting.map((row) => row.id)).toEqual([ids.at(-1)]);
    // An earlier screen is gone: its answer is as unknown as a made-up id; the newest one answers.
    expect((await answerTicketConsent(t.app, student.cookie, String(ids[0]), true)).statusCode).toBe(404);
    expect((await answerTicketConsent(t.app, student.cookie, String(ids.at(-1)), true)).statusCode).toBe(200);
  });

  it("returns a refusing person to the apps page, audited and noted in the integration's health", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "refused.example.edu");
    const id = String(consentRequestOf(await open(student.cookie, { appId: application.id, state: "s" })));
    const refused = await answerTicketConsent(t.app, student.cookie, id, false);
    expect(refused.outcome()).toEqual({ redirectTo: "/uk/apps" });
    expect(await ticketsOf(application.id)).toBe(0);
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "reason"])
      .where("application_id", "=", application.id)
      .where("user_id", "=", student.person.id)
      .execute();
    expect(audited).toContainEqual({ event_type: "app_redirect", result: "failure", reason: "consent.required" });
    expect(audited).toContainEqual({ event_type: "app_redirect", result: "failure", reason: "consent.declined" });
    const health = await t.app.inject({
      url: `/api/developers/applications/${application.id}/health`,
      headers: { cookie: owner.cookie },
    });
    expect(integrationHealthSchema.parse(health.json()).failures[0]).toMatchObject({
      protocol: "ticket",
      reason: "consent_declined",
    });
    // Not remembered as a refusal: the next visit asks again.
    expect(consentRequestOf(await open(student.cookie, { appId: application.id }))).toBeDefined();
  });

  it("refuses a non-tester, a suspended application and a person without access before any consent", async () => {
    const owner = await addStudent(t.app, "owner");
    const classmate = await addStudent(t.app, "classmate");
    const testing = await registerApplication(t.app, owner.cookie, {
      title: "Тест",
      titleEn: "Test",
      callbackUrls: ["https://testing.example.edu/callback"],
    });
    const refused = await open(classmate.cookie, { appId: testing.application.id });
    expect(refused.headers.location).toBe(`/uk/apps?appId=${testing.application.id}&refused=testing`);
    // Its owner is asked, and the screen says the university has not reviewed it.
    const ownId = String(consentRequestOf(await open(owner.cookie, { appId: testing.application.id })));
    const own = await t.app.inject({ url: `${ticketConsentPath}/${ownId}`, headers: { cookie: owner.cookie } });
    expect(own.json()).toMatchObject({ reviewed: false });

    const live = await liveCommunityApplication(t.app, owner, [owner], "norule.example.edu");
    expect((await open(classmate.cookie, { appId: live.application.id })).headers.location).toBe(
      `/uk/apps?appId=${live.application.id}`,
    );
    // Suspended while the screen was open: agreeing issues nothing and the app redirect explains.
    const waiting = String(consentRequestOf(await open(owner.cookie, { appId: live.application.id })));
    await t.app.db
      .updateTable("applications")
      .set({ suspended_at: clock.now() })
      .where("id", "=", live.application.id)
      .execute();
    const agreed = await answerTicketConsent(t.app, owner.cookie, waiting, true);
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${live.application.id}`);
    expect(await ticketsOf(live.application.id)).toBe(0);
    const noRequests = await t.app.db
      .selectFrom("ticket_consent_requests")
      .select("id")
      .where("user_id", "=", classmate.person.id)
      .execute();
    expect(noRequests).toEqual([]);
  });

  it("steps up before the ticket when the application requires MFA, whichever came first", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "strong.example.edu");
    // The screen was open when the application came to require MFA: the answer goes through the step-up.
    const id = String(consentRequestOf(await open(student.cookie, { appId: application.id, state: "k" })));
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const agreed = await answerTicketConsent(t.app, student.cookie, id, true);
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${application.id}&state=k`);
    expect(await ticketsOf(application.id)).toBe(0);
    // The consent is kept: the app redirect asks for the second factor (none set up here) and not consent again.
    const next = await open(student.cookie, { appId: application.id, state: "k" });
    expect(next.headers.location).toBe("/uk/account#second-factor");
  });

  it("expires a waiting request", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "student");
    const { application } = await liveCommunityApplication(t.app, owner, [student], "slow.example.edu");
    const id = String(consentRequestOf(await open(student.cookie, { appId: application.id })));
    clock.advance(601);
    const late = await answerTicketConsent(t.app, student.cookie, id, true);
    expect(late.statusCode).toBe(404);
    expect(late.json().code).toBe("consent.request_not_found");
  });

  it("leaves first-party applications unchanged: the ticket at once, in the same form", async () => {
    const student = await addStudent(t.app, "student");
    const { application, secret } = await addApplication(t.app, "https://campus.example.edu/cb?from=kpi");
    await grantAccess(t.app.db, student.person.id, application.id);
    const redirect = await open(student.cookie, { appId: application.id, state: "a b&c" });
    const location = String(redirect.headers.location);
    expect(location).toMatch(/^https:\/\/campus\.example\.edu\/cb\?from=kpi&ticketId=[A-Za-z0-9_-]+&state=a\+b%26c$/);
    const answer = await redeem(application.id, secret, ticketOf(location));
    expect(Object.keys(answer.json())).toEqual(["id", "created", "applicationId", "traceId", "data"]);
    // Even when an operator marked it third-party for OpenID Connect: that flag decides only OpenID Connect's screen.
    await t.app.db.updateTable("applications").set({ first_party: false }).where("id", "=", application.id).execute();
    expect(String((await open(student.cookie, { appId: application.id })).headers.location)).toContain("ticketId=");
  });
});
