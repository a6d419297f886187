import { integrationHealthSchema, ticketConsentPath } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { addApplication, grantAccess } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addStudent, registerApplication } from "../support/developers.ts";
import {
  answerTicketConsent,
  consentRequestOf,
  liveCommunityApplication,
  openAppRedirect,
  redeemTicket,
  studentOfLiveApplication,
  ticketConsentTestApp,
  ticketCountOf,
  ticketIdOf,
  waitingConsentRequest,
} from "../support/ticket-consent.ts";

/**
 * Issue 56, point 2, continued from attacks-ticket-consent.test.ts: one waiting request per person and application,
 * a refusal, an application the person may not use, a step-up, an expired request; operators' own applications keep
 * the old flow byte for byte.
 */
describe.each(aboveModelDatabases)("attacks on the ticket path's consent: its limits (%s)", (kind) => {
  const { app, clock } = ticketConsentTestApp(kind);

  it("keeps one waiting request per person and application however often its link is opened", async () => {
    const { student, application } = await studentOfLiveApplication(app(), "reopened.example.edu");
    const ids: string[] = [];
    for (let opened = 0; opened < 50; opened++) {
      ids.push(String(consentRequestOf(await openAppRedirect(app(), student.cookie, { appId: application.id }))));
    }
    const waiting = await app()
      .db.selectFrom("ticket_consent_requests")
      .select("id")
      .where("user_id", "=", student.person.id)
      .where("application_id", "=", application.id)
      .execute();
    expect(waiting.map((row) => row.id)).toEqual([ids.at(-1)]);
    // An earlier screen is gone: its answer is as unknown as a made-up id; the newest one answers.
    expect((await answerTicketConsent(app(), student.cookie, String(ids[0]), true)).statusCode).toBe(404);
    expect((await answerTicketConsent(app(), student.cookie, String(ids.at(-1)), true)).statusCode).toBe(200);
  });

  it("returns a refusing person to the apps page, audited and noted in the integration's health", async () => {
    const { owner, student, application, id } = await waitingConsentRequest(app(), "refused.example.edu", {
      state: "s",
    });
    const refused = await answerTicketConsent(app(), student.cookie, id, false);
    expect(refused.outcome()).toEqual({ redirectTo: "/uk/apps" });
    expect(await ticketCountOf(app(), application.id)).toBe(0);
    const audited = await app()
      .db.selectFrom("audit_events")
      .select(["event_type", "result", "reason"])
      .where("application_id", "=", application.id)
      .where("user_id", "=", student.person.id)
      .orderBy("audit_events.id")
      .execute();
    expect(audited).toContainEqual({ event_type: "app_redirect", result: "failure", reason: "consent.required" });
    expect(audited).toContainEqual({ event_type: "app_redirect", result: "failure", reason: "consent.declined" });
    const health = await app().inject({
      url: `/api/developers/applications/${application.id}/health`,
      headers: { cookie: owner.cookie },
    });
    expect(integrationHealthSchema.parse(health.json()).failures[0]).toMatchObject({
      protocol: "ticket",
      reason: "consent_declined",
    });
    // Not remembered as a refusal: the next visit asks again.
    expect(consentRequestOf(await openAppRedirect(app(), student.cookie, { appId: application.id }))).toBeDefined();
  });

  it("refuses a non-tester, a suspended application and a person without access before any consent", async () => {
    const owner = await addStudent(app(), "owner");
    const classmate = await addStudent(app(), "classmate");
    const testing = await registerApplication(app(), owner.cookie, {
      title: "Тест",
      titleEn: "Test",
      callbackUrls: ["https://testing.example.edu/callback"],
    });
    const refused = await openAppRedirect(app(), classmate.cookie, { appId: testing.application.id });
    expect(refused.headers.location).toBe(`/uk/apps?appId=${testing.application.id}&refused=testing`);
    // Its owner is asked, and the screen says the university has not reviewed it.
    const ownId = String(
      consentRequestOf(await openAppRedirect(app(), owner.cookie, { appId: testing.application.id })),
    );
    const own = await app().inject({ url: `${ticketConsentPath}/${ownId}`, headers: { cookie: owner.cookie } });
    expect(own.json()).toMatchObject({ reviewed: false });

    const live = await liveCommunityApplication(app(), owner, [owner], "norule.example.edu");
    expect((await openAppRedirect(app(), classmate.cookie, { appId: live.application.id })).headers.location).toBe(
      `/uk/apps?appId=${live.application.id}`,
    );
    // Suspended while the screen was open: agreeing issues nothing and the app redirect explains.
    const waiting = String(
      consentRequestOf(await openAppRedirect(app(), owner.cookie, { appId: live.application.id })),
    );
    await app()
      .db.updateTable("applications")
      .set({ suspended_at: clock.now() })
      .where("id", "=", live.application.id)
      .execute();
    const agreed = await answerTicketConsent(app(), owner.cookie, waiting, true);
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${live.application.id}`);
    expect(await ticketCountOf(app(), live.application.id)).toBe(0);
    const noRequests = await app()
      .db.selectFrom("ticket_consent_requests")
      .select("id")
      .where("user_id", "=", classmate.person.id)
      .execute();
    expect(noRequests).toEqual([]);
  });

  it("steps up before the ticket when the application requires MFA, whichever came first", async () => {
    // The screen was open when the application came to require MFA: the answer goes through the step-up.
    const { student, application, id } = await waitingConsentRequest(app(), "strong.example.edu", { state: "k" });
    await app().db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const agreed = await answerTicketConsent(app(), student.cookie, id, true);
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${application.id}&state=k`);
    expect(await ticketCountOf(app(), application.id)).toBe(0);
    // The consent is kept: the app redirect asks for the second factor (none set up here) and not consent again.
    const next = await openAppRedirect(app(), student.cookie, { appId: application.id, state: "k" });
    expect(next.headers.location).toBe("/uk/account#second-factor");
  });

  it("expires a waiting request", async () => {
    const { student, id } = await waitingConsentRequest(app(), "slow.example.edu");
    clock.advance(601);
    const late = await answerTicketConsent(app(), student.cookie, id, true);
    expect(late.statusCode).toBe(404);
    expect(late.json().code).toBe("consent.request_not_found");
  });

  it("leaves first-party applications unchanged: the ticket at once, in the same form", async () => {
    const student = await addStudent(app(), "student");
    const { application, secret } = await addApplication(app(), "https://campus.example.edu/cb?from=kpi");
    await grantAccess(app().db, student.person.id, application.id);
    const redirect = await openAppRedirect(app(), student.cookie, { appId: application.id, state: "a b&c" });
    const location = String(redirect.headers.location);
    expect(location).toMatch(/^https:\/\/campus\.example\.edu\/cb\?from=kpi&ticketId=[A-Za-z0-9_-]+&state=a\+b%26c$/);
    const answer = await redeemTicket(app(), application.id, secret, ticketIdOf(location));
    expect(Object.keys(answer.json())).toEqual(["id", "created", "applicationId", "traceId", "data"]);
    // Even when an operator marked it third-party for OpenID Connect: that flag decides only OpenID Connect's screen.
    await app().db.updateTable("applications").set({ first_party: false }).where("id", "=", application.id).execute();
    expect(
      String((await openAppRedirect(app(), student.cookie, { appId: application.id })).headers.location),
    ).toContain("ticketId=");
  });
});
