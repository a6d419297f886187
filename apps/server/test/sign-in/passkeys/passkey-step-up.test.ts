import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addPasskeyFrom, passkeySignIn, passwordBrowser } from "../../support/passkeys.ts";

const password = "a passphrase that needs a key too";

describe.each(aboveModelDatabases)("a passkey as the step-up for an application that requires MFA (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"], clock: clock.now });
  });
  afterAll(() => t.close());

  it("a password session is sent to sign in again; the passkey sign-in gets the ticket, AUTH_METHOD as before", async () => {
    const person = await addPerson(t.app, { username: "key-step-up", fullName: "Крок Угору" }, password);
    const { application, secret } = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.id);
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const browser = await passwordBrowser(t.app, "key-step-up", password, "192.0.2.41");

    // No second factor and no passkey: nothing to step up with, so the account page.
    const none = await browser.get(`/api/app-redirect?appId=${application.id}`);
    expect(none.headers.location).toBe("/uk/account#second-factor");

    // With a passkey (and no authenticator app) the person is asked to sign in again instead.
    const { authenticator } = await addPasskeyFrom(browser, "Ключ");
    const weak = await browser.get(`/api/app-redirect?appId=${application.id}`);
    expect(weak.headers.location).toBe(`/uk/?appId=${application.id}&reauth=1&mfa=1`);

    expect((await passkeySignIn(browser, authenticator)).answer.statusCode).toBe(200);
    const strong = await browser.get(`/api/app-redirect?appId=${application.id}`);
    const ticketId = new URL(strong.headers.location ?? "").searchParams.get("ticketId") ?? "";
    expect(ticketId).not.toBe("");
    const query = new URLSearchParams({ ticketId, appId: application.id, appSecret: secret });
    const ticket = (await t.app.inject({ url: `/api/ticket?${query}` })).json();
    expect(ticket.data).toMatchObject({
      AUTH_METHOD: "PASSWORD",
      AUTH_AMR: "hwk user mfa",
      AUTH_ACR: "https://refeds.org/profile/mfa",
    });
  });
});
