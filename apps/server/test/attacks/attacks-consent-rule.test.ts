import { ticketConsentPath } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { testBrowser } from "../support/browser.ts";
import { addPerson, grantAccess, manualClock, signIn } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addStudent } from "../support/developers.ts";
import { DevicePage, deviceOf } from "../support/device.ts";
import { createListeningTestApp, type ListeningTestApp } from "../support/listening.ts";
import { addAuthenticator } from "../support/mfa.ts";
import { addOidcClient, discover, startSignIn, TestBrowser } from "../support/oidc.ts";
import { consentRequestOf, liveCommunityApplication } from "../support/ticket-consent.ts";

/** The same rule on OpenID Connect: an operator's first-party flag never skips a community application's screen. */
describe.each(aboveModelDatabases)("OpenID Connect's first-party rule for community applications (%s)", (kind) => {
  let listening: ListeningTestApp;
  beforeAll(async () => {
    listening = await createListeningTestApp(kind);
  });
  afterAll(() => listening?.test.close());

  it("asks for consent for a community application marked first-party, and not for an operator's own", async () => {
    const { test, origin, issuer } = listening;
    const redirectUri = "https://rp.example.edu/callback";
    const person = await addPerson(test.app, { username: "oidc.person", fullName: "Особа OIDC" }, "oidc passphrase 1");
    const cookie = await signIn(test.app, "oidc.person", "oidc passphrase 1", { origin });
    const signInTo = async (clientId: string, secret: string) => {
      const browser = new TestBrowser(origin);
      browser.setCookie(cookie);
      const start = await startSignIn(await discover(issuer, clientId, secret), redirectUri, "openid profile");
      return browser.follow(start.url.href);
    };
    const official = await addOidcClient(test.app, { redirectUris: [redirectUri], firstParty: true });
    const community = await addOidcClient(test.app, { redirectUris: [redirectUri], firstParty: true });
    await test.app.db
      .updateTable("applications")
      .set({ community: true })
      .where("id", "=", community.application.id)
      .execute();
    for (const { application } of [official, community]) await grantAccess(test.app.db, person.id, application.id);

    const straight = await signInTo(official.application.id, official.secret);
    expect(straight.leftTo?.searchParams.get("code")).toBeTruthy();
    const asked = await signInTo(community.application.id, community.secret);
    expect(asked.leftTo).toBeUndefined();
    expect(new URL(asked.response.url).pathname).toBe("/uk/consent");
  });

  it("marks the device page's application reviewed or not, as the consent screen does (issue 56, point 6)", async () => {
    const { test, origin, issuer } = listening;
    await addPerson(test.app, { username: "device.person", fullName: "Особа пристрою" }, "device passphrase 1");
    const browser = new TestBrowser(origin);
    await browser.signIn("device.person", "device passphrase 1");
    const page = new DevicePage(browser);
    const reviewedOf = async (lifecycle: "live" | "testing") => {
      const device = await addOidcClient(test.app, { redirectUris: ["https://rp.example.edu/cb"], deviceFlow: true });
      await test.app.db
        .updateTable("applications")
        .set({ lifecycle, community: lifecycle === "testing" })
        .where("id", "=", device.application.id)
        .execute();
      const code = await deviceOf(issuer, { id: device.application.id, secret: device.secret }).askForCode();
      return (await page.lookUp(code.body.user_code)).body.reviewed;
    };
    expect(await reviewedOf("live")).toBe(true);
    expect(await reviewedOf("testing")).toBe(false);
  });
});

/** An application that requires MFA: step-up and consent in either order, both ending at the application with a ticket. */
describe.each(aboveModelDatabases)("consent and step-up on the ticket path (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
  });
  afterAll(() => t.close());

  /** A student with an authenticator, signed in with the password only, and their way to sign in again with the code. */
  async function oneFactorStudent(name: string) {
    const student = await addStudent(t.app, name);
    const browser = testBrowser(t.app);
    const signInWith = async (codeAt?: (when: Date) => Promise<string>) => {
      const auth = await browser.post("/api/auth", { username: student.username, password: "developer passphrase 1" });
      const sessionId = auth.json().sessionId;
      if (codeAt) await browser.post("/api/auth/second-factor", { sessionId, code: await codeAt(clock.now()) });
      await browser.post("/api/auth/internal", { sessionId });
    };
    // Signed in with the password before the authenticator was set up: a one-factor session.
    await signInWith();
    const codeAt = await addAuthenticator(t.app, { id: student.person.id, username: student.username }, clock.now());
    clock.advance(30);
    return { ...student, browser, stepUp: () => signInWith(codeAt) };
  }

  const location = (response: { headers: Record<string, unknown> }) => String(response.headers.location ?? "");
  const agree = async (person: Awaited<ReturnType<typeof oneFactorStudent>>, redirect: { headers: object }) => {
    const id = String(consentRequestOf(redirect as Parameters<typeof consentRequestOf>[0]));
    return (await person.browser.post(`${ticketConsentPath}/${id}`, { allow: true })).json().redirectTo as string;
  };

  it("steps up first, then asks consent, then issues the ticket", async () => {
    const owner = await addStudent(t.app, "owner");
    const person = await oneFactorStudent("stepper");
    const { application } = await liveCommunityApplication(t.app, owner, [person], "mfa-first.example.edu");
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const open = () => person.browser.get(`/api/app-redirect?appId=${application.id}&state=z`);
    expect(location(await open())).toBe(`/uk/?appId=${application.id}&state=z&reauth=1&mfa=1`);
    clock.advance(30);
    await person.stepUp();
    const asked = await open();
    expect(location(asked)).toMatch(/^\/uk\/consent\?ticket=/);
    expect(await agree(person, asked)).toMatch(/^https:\/\/mfa-first\.example\.edu\/callback\?ticketId=[^&]+&state=z$/);
  });

  it("asks consent first, then steps up, then issues the ticket without asking again", async () => {
    const owner = await addStudent(t.app, "owner");
    const person = await oneFactorStudent("consenter");
    const { application } = await liveCommunityApplication(t.app, owner, [person], "consent-first.example.edu");
    const open = () => person.browser.get(`/api/app-redirect?appId=${application.id}&state=y`);
    const asked = await open();
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const next = await agree(person, asked);
    expect(next).toBe(`/api/app-redirect?appId=${application.id}&state=y`);
    expect(location(await person.browser.get(next))).toBe(`/uk/?appId=${application.id}&state=y&reauth=1&mfa=1`);
    clock.advance(30);
    await person.stepUp();
    expect(location(await open())).toMatch(/^https:\/\/consent-first\.example\.edu\/callback\?ticketId=[^&]+&state=y$/);
  });
});
