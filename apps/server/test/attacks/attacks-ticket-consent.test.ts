import {
  connectedApplicationsSchema,
  type TicketConsentDetails,
  ticketConsentDetailsSchema,
  ticketConsentPath,
} from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { postJson } from "../support/app.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addStudent } from "../support/developers.ts";
import {
  answerTicketConsent,
  consentRequestOf,
  liveCommunityApplication,
  openAgreeing,
  openAppRedirect,
  redeemTicket,
  studentOfLiveApplication,
  ticketConsentTestApp,
  ticketCountOf,
  ticketIdOf,
  waitingConsentRequest,
} from "../support/ticket-consent.ts";

/**
 * Issue 56, point 2: the ticket path handed a person's identity to any registered application at once. A
 * community application (registered on the developers' page) now gets a ticket only after the person agrees,
 * and its server learns nothing before. Here: the answer cannot be forged, swapped or widened; who is asked, when, and
 * for how long is in attacks-ticket-consent-limits.test.ts.
 */
describe.each(aboveModelDatabases)("attacks on the ticket path's consent (%s)", (kind) => {
  const { app } = ticketConsentTestApp(kind);

  it("gives no ticket without consent: the community application's server learns nothing until the person agrees", async () => {
    const owner = await addStudent(app(), "owner");
    const student = await addStudent(app(), "victim");
    const { application, secret } = await liveCommunityApplication(app(), owner, [student], "grab.example.edu");

    const redirect = await openAppRedirect(app(), student.cookie, { appId: application.id, state: "s-1" });
    expect(redirect.statusCode).toBe(302);
    const id = consentRequestOf(redirect);
    expect(id).toBeDefined();
    expect(String(redirect.headers.location)).not.toContain("grab.example.edu");
    expect(String(redirect.headers.location)).not.toContain("ticketId");
    expect(await ticketCountOf(app(), application.id)).toBe(0);
    // The application's server, guessing: the waiting request's id is no ticket.
    expect((await redeemTicket(app(), application.id, secret, String(id))).statusCode).toBe(401);

    // The screen tells what the ticket carries, that operators reviewed it, and who stands behind it.
    const details = await app().inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    const shown: TicketConsentDetails = ticketConsentDetailsSchema.parse(details.json());
    expect(shown).toMatchObject({
      application: { title: "Спільнота grab.example.edu" },
      data: ["identifier", "name", "recordIds", "roles", "signInMethod"],
      reviewed: true,
      publisher: { homePageUrl: "https://grab.example.edu/", privacyPolicyUrl: "https://grab.example.edu/privacy" },
    });
    expect(shown.publisher.owners.map((person) => person.name)).toEqual([owner.person.full_name]);

    const agreed = await answerTicketConsent(app(), student.cookie, String(id), true);
    const location = agreed.outcome().redirectTo;
    expect(location).toMatch(/^https:\/\/grab\.example\.edu\/callback\?ticketId=[^&]+&state=s-1$/);
    const exchanged = await redeemTicket(app(), application.id, secret, ticketIdOf(location));
    expect(exchanged.statusCode).toBe(200);
    expect(exchanged.json().data).toMatchObject({ USER_ID: student.person.id, TAX_ID: "" });

    // Answered once: the same request cannot mint a second ticket.
    expect((await answerTicketConsent(app(), student.cookie, String(id), true)).statusCode).toBe(404);
    // Remembered: the next visit goes straight through.
    const again = await openAppRedirect(app(), student.cookie, { appId: application.id });
    expect(String(again.headers.location)).toMatch(/^https:\/\/grab\.example\.edu\/callback\?ticketId=/);
  });

  it("keeps the application, state and callback on the server: nothing can be swapped between the screen and the answer", async () => {
    const owner = await addStudent(app(), "owner");
    const student = await addStudent(app(), "student");
    const other = await addStudent(app(), "other");
    const a = await liveCommunityApplication(app(), owner, [student, other], "a.example.edu");
    const b = await liveCommunityApplication(app(), owner, [student, other], "b.example.edu");

    // Consent for A does not cover B.
    await openAgreeing(app(), student.cookie, { appId: a.application.id });
    const toB = await openAppRedirect(app(), student.cookie, {
      appId: b.application.id,
      redirectUri: "https://b.example.edu/other",
    });
    const idB = String(consentRequestOf(toB));
    expect(idB).not.toBe("undefined");

    // Another person cannot read or answer it (as unknown as a made-up id).
    expect(
      (await app().inject({ url: `${ticketConsentPath}/${idB}`, headers: { cookie: other.cookie } })).statusCode,
    ).toBe(404);
    expect((await answerTicketConsent(app(), other.cookie, idB, true)).statusCode).toBe(404);
    const made = "00000000-0000-4000-8000-000000000000";
    expect((await answerTicketConsent(app(), student.cookie, made, true)).statusCode).toBe(404);
    expect((await answerTicketConsent(app(), student.cookie, "not-a-uuid", true)).statusCode).toBe(400);

    // The answer carries nothing but allow: an appId, state or redirectUri in its body is not used.
    const answer = await postJson(
      app(),
      `${ticketConsentPath}/${idB}`,
      { allow: true, appId: a.application.id, redirectUri: "https://evil.example/cb", state: "x" },
      { headers: { cookie: student.cookie } },
    );
    expect(answer.json().redirectTo).toMatch(/^https:\/\/b\.example\.edu\/other\?ticketId=[^&]+$/);
    // The ticket is B's: A's credentials cannot redeem it.
    const ticket = ticketIdOf(answer.json().redirectTo);
    expect((await redeemTicket(app(), a.application.id, a.secret, ticket)).statusCode).toBe(401);
    // An unregistered callback is refused before any screen, as before.
    const evil = await openAppRedirect(app(), student.cookie, {
      appId: b.application.id,
      redirectUri: "https://evil.example/cb",
    });
    // The apps page names the address tried (issue 60): the browser goes to KPI ID's own page, never to it.
    const tried = new URLSearchParams({ appId: b.application.id, redirectUri: "https://evil.example/cb" });
    expect(evil.headers.location).toBe(`/uk/apps?${tried}&refused=redirectUri`);
  });

  it("refuses a forged or cross-site answer, and the waiting request stays for the person's own", async () => {
    const { student, application, id } = await waitingConsentRequest(app(), "forged.example.edu");
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
      const answer = await app().inject({ method: "POST", url, ...attempt });
      // Refused by the Origin check (JSON), or earlier for a body no page of this site sends.
      const json = attempt.headers["content-type"] === "application/json";
      expect(json ? [403] : [400, 403, 415]).toContain(answer.statusCode);
      expect(answer.json().code).toMatch(json ? /^request\.csrf_rejected$/ : /^request\./);
    }
    // A GET never answers.
    expect((await app().inject({ url: `${url}?allow=true`, headers: { cookie } })).json()).not.toHaveProperty(
      "redirectTo",
    );
    expect(await ticketCountOf(app(), application.id)).toBe(0);
    expect(await app().db.selectFrom("ticket_consents").select("user_id").execute()).not.toContainEqual({
      user_id: student.person.id,
    });
    // Without a session there is nothing to answer either.
    expect((await postJson(app(), url, { allow: true })).statusCode).toBe(401);
    expect((await answerTicketConsent(app(), cookie, id, true)).outcome().redirectTo).toContain("ticketId=");
  });

  it("asks again after the person revokes it on the account page, and when the application comes to receive more", async () => {
    const { student, application } = await studentOfLiveApplication(app(), "revoked.example.edu");
    expect((await openAgreeing(app(), student.cookie, { appId: application.id })).asked).toBe(true);

    const listed = await app().inject({ url: "/api/account/applications", headers: { cookie: student.cookie } });
    expect(connectedApplicationsSchema.parse(listed.json()).applications).toContainEqual({
      id: application.id,
      title: "Спільнота revoked.example.edu",
      scopes: [],
      ticketData: ["identifier", "name", "recordIds", "roles", "signInMethod"],
    });
    const revoke = await postJson(
      app(),
      "/api/account/applications/revoke",
      { applicationId: application.id },
      { headers: { cookie: student.cookie } },
    );
    expect(revoke.statusCode).toBe(200);
    const afterRevoke = await openAppRedirect(app(), student.cookie, { appId: application.id });
    expect(consentRequestOf(afterRevoke)).toBeDefined();

    // Agreed again; then operators allow it the tax id: what was agreed no longer covers it.
    await answerTicketConsent(app(), student.cookie, String(consentRequestOf(afterRevoke)), true);
    expect(
      String((await openAppRedirect(app(), student.cookie, { appId: application.id })).headers.location),
    ).toContain("ticketId=");
    await app().db.updateTable("applications").set({ release_tax_id: true }).where("id", "=", application.id).execute();
    const wider = await openAppRedirect(app(), student.cookie, { appId: application.id });
    const id = String(consentRequestOf(wider));
    const details = await app().inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    expect(details.json().data).toContain("taxId");
  });

  it("records only what the screen named: operators releasing the tax id before the answer means asking again", async () => {
    const { student, application, id } = await waitingConsentRequest(app(), "widened.example.edu", { state: "w-1" });
    const screen = await app().inject({ url: `${ticketConsentPath}/${id}`, headers: { cookie: student.cookie } });
    expect(ticketConsentDetailsSchema.parse(screen.json()).data).not.toContain("taxId");

    await app().db.updateTable("applications").set({ release_tax_id: true }).where("id", "=", application.id).execute();
    const agreed = await answerTicketConsent(app(), student.cookie, id, true);
    // No ticket and no consent: the browser goes back through the app redirect, which asks with the tax id.
    expect(agreed.outcome().redirectTo).toBe(`/api/app-redirect?appId=${application.id}&state=w-1`);
    expect(await ticketCountOf(app(), application.id)).toBe(0);
    const consents = await app()
      .db.selectFrom("ticket_consents")
      .select("data")
      .where("user_id", "=", student.person.id)
      .where("application_id", "=", application.id)
      .execute();
    expect(consents).toEqual([]);
    const again = await openAppRedirect(app(), student.cookie, { appId: application.id, state: "w-1" });
    const askedAgain = String(consentRequestOf(again));
    const wider = await app().inject({
      url: `${ticketConsentPath}/${askedAgain}`,
      headers: { cookie: student.cookie },
    });
    expect(ticketConsentDetailsSchema.parse(wider.json()).data).toContain("taxId");
    const answered = await answerTicketConsent(app(), student.cookie, askedAgain, true);
    expect(answered.outcome().redirectTo).toMatch(/^https:\/\/widened\.example\.edu\/callback\?ticketId=/);
  });
});
