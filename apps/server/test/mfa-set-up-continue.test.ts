import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/app.ts";
import { type TestBrowserJar, testBrowser } from "./support/browser.ts";
import { addApplication, addPerson, grantAccess, manualClock } from "./support/campus.ts";
import { databaseKinds } from "./support/databases.ts";

const password = "a set-up then go on passphrase";
const extraCallback = "https://app.example.edu/kpi-id/second-callback";

/**
 * Issue 17: a person without a second factor whom an application (or the operator) requires one of is
 * led to set one up; what the sign-in was for waits, and confirming the authenticator goes on to it.
 */
describe.each(databaseKinds)("setting a second factor up on the way to an application (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
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
    return confirmed.json<{ recoveryCodes: string[]; next?: string }>();
  }

  it("the ticket flow: set-up goes on to the application with its state and chosen callback, and a ticket follows", async () => {
    const { person, browser } = await signedIn("led-to-set-up");
    const { application, secret } = await addApplication(t.app, undefined, { extraCallbackUrls: [extraCallback] });
    await grantAccess(t.app.db, person.id, application.id);
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const link = new URLSearchParams({ appId: application.id, state: "s p&c=1", redirectUri: extraCallback });

    const led = await browser.get(`/api/app-redirect?${link}`);
    expect(led.headers.location).toBe("/uk/account#second-factor");
    const { next, recoveryCodes } = await setUp(browser);
    expect(recoveryCodes).toHaveLength(10);
    expect(next).toBe(`/uk/apps?${link}`);

    // The apps page takes the link on to /api/app-redirect: the session now counts as two factors.
    const onward = await browser.get(`/api/app-redirect?${new URL(next ?? "", "http://x").searchParams}`);
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

  it("a set-up nobody is waiting on answers no next, and the session is stronger all the same", async () => {
    const { person, browser } = await signedIn("just-setting-up");
    clock.advance(30);
    const answer = await setUp(browser);
    expect(answer.next).toBeUndefined();
    // Proven by the code just now: an action that wants a strong session accepts this one.
    const session = await t.app.db.selectFrom("sessions").select("amr").where("user_id", "=", person.id).execute();
    expect(session.map((row) => row.amr)).toEqual([["pwd", "otp", "mfa"]]);
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
