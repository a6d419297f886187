import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { type TestBrowserJar, testBrowser } from "../../support/browser.ts";
import { addApplication, addPerson, grantAccess, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const password = "a set-up then go on passphrase";
const extraCallback = "https://app.example.edu/kpi-id/second-callback";

/**
 * Issue 17: a person without a second factor whom an application (or the operator) requires one of is
 * led to set one up; what the sign-in was for waits, and confirming the authenticator goes on to it.
 */
describe.each(aboveModelDatabases)("setting a second factor up on the way to an application (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"], clock: clock.now });
  });
  afterAll(() => t.close());

  async function signedIn(username: string) {
    const person = await addPerson(t.app, { username, fullName: "Нова Людина" }, password);
    const browser = testBrowser(t.app);
    const auth = await browser.post("/api/auth", { username, password });
    await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });
    return { person, browser };
  }

  /** The account page's set-up: the secret, then the code the phone shows now. */
  async function setUp(browser: TestBrowserJar) {
    const { secret } = (await browser.post("/api/account/totp", {})).json<{ secret: string }>();
    const code = await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    const confirmed = await browser.post("/api/account/totp/confirm", { code });
    expect(confirmed.statusCode).toBe(200);
    return { ...confirmed.json<{ recoveryCodes: string[]; next?: string }>(), secret };
  }

  it("the ticket flow: set-up goes on to the application, which asks for a sign-in with the new code, then a ticket follows", async () => {
    const { person, browser } = await signedIn("led-to-set-up");
    const { application, secret } = await addApplication(t.app, undefined, { extraCallbackUrls: [extraCallback] });
    await grantAccess(t.app.db, person.id, application.id);
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const link = new URLSearchParams({ appId: application.id, state: "s p&c=1", redirectUri: extraCallback });

    const led = await browser.get(`/api/app-redirect?${link}`);
    expect(led.headers.location).toBe("/uk/account#second-factor");
    const { next, recoveryCodes, secret: totpSecret } = await setUp(browser);
    expect(recoveryCodes).toHaveLength(10);
    // Setting the factor up did not make the session two-factor (issue 35): next is a sign-in with the new code,
    // and that sign-in goes on to the waiting application link.
    expect(next).toBe("/uk/?reauth=1&mfa=1");
    clock.advance(30);
    const auth = await browser.post("/api/auth", { username: "led-to-set-up", password });
    expect(auth.json().secondFactor).toBe("totp");
    const code = await generate({ secret: totpSecret, epoch: Math.floor(clock.now().getTime() / 1000) });
    expect((await browser.post("/api/auth/second-factor", { sessionId: auth.json().sessionId, code })).statusCode).toBe(
      200,
    );
    const exchanged = await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });
    expect(exchanged.json().next).toBe(`/uk/apps?${link}`);

    // The apps page takes the link on to /api/app-redirect: the session is two-factor now.
    const onward = await browser.get(`/api/app-redirect?${link}`);
    const callback = new URL(String(onward.headers.location));
    expect(callback.origin + callback.pathname).toBe(extraCallback);
    expect(callback.searchParams.get("state")).toBe("s p&c=1");
    const query = new URLSearchParams({
      ticketId: callback.searchParams.get("ticketId") ?? "",
      appId: application.id,
      appSecret: secret,
    });
    const ticket = await t.app.inject({ url: `/api/ticket?${query}` });
    expect(ticket.json().data).toMatchObject({ AUTH_AMR: "pwd otp mfa", AUTH_ACR: "https://refeds.org/profile/mfa" });
  });

  it("a set-up nobody is waiting on answers no next, and the session stays as strong as its sign-in (one factor)", async () => {
    const { person, browser } = await signedIn("just-setting-up");
    clock.advance(30);
    const answer = await setUp(browser);
    expect(answer.next).toBeUndefined();
    // A factor set up inside the session proves nothing about who signed in (issue 35).
    const session = await t.app.db.selectFrom("sessions").select("amr").where("user_id", "=", person.id).execute();
    expect(session.map((row) => row.amr)).toEqual([["pwd"]]);
  });

  it("a wrong first code neither confirms nor takes the waiting application", async () => {
    const { person, browser } = await signedIn("wrong-first-code");
    const { application } = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.id);
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    await browser.get(`/api/app-redirect?appId=${application.id}`);
    await browser.post("/api/account/totp", {});
    const wrong = await browser.post("/api/account/totp/confirm", { code: "000000" });
    expect(wrong.statusCode).toBe(401);
    expect(browser.jar.has("kpi_id_continue")).toBe(true);
  });
});
