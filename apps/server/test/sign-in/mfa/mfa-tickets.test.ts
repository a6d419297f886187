import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { testBrowser } from "../../support/browser.ts";
import { addApplication, addPerson, grantAccess, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addAuthenticator } from "../../support/mfa.ts";

const password = "a ticket flow passphrase";

describe.each(aboveModelDatabases)("the ticket flow and an application that requires MFA (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"], clock: clock.now });
  });
  afterAll(() => t.close());

  async function exchange(ticketUrl: string, application: { id: string }, secret: string) {
    const ticketId = new URL(ticketUrl).searchParams.get("ticketId") ?? "";
    const query = new URLSearchParams({ ticketId, appId: application.id, appSecret: secret });
    return t.app.inject({ url: `/api/ticket?${query}` });
  }

  it("gives a ticket only after the step-up; the ticket's data gains AUTH_AMR and AUTH_ACR, the old keys as they were", async () => {
    const person = await addPerson(t.app, { username: "ticketed", fullName: "Квиток Строгий" }, password);
    const { application, secret } = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.id);
    await t.app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const browser = testBrowser(t.app);
    const auth = await browser.post("/api/auth", { username: "ticketed", password });
    await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });

    // One factor, none to add: led to the account page to set one up, no ticket.
    const noFactor = await browser.get(`/api/app-redirect?appId=${application.id}`);
    expect(noFactor.headers.location).toBe("/uk/account#second-factor");

    const codeAt = await addAuthenticator(t.app, person, clock.now());
    clock.advance(30);
    const weak = await browser.get(`/api/app-redirect?appId=${application.id}`);
    expect(weak.headers.location).toBe(`/uk/?appId=${application.id}&reauth=1&mfa=1`);

    const again = await browser.post("/api/auth", { username: "ticketed", password });
    const code = await codeAt(clock.now());
    await browser.post("/api/auth/second-factor", { sessionId: again.json().sessionId, code });
    await browser.post("/api/auth/internal", { sessionId: again.json().sessionId });
    const strong = await browser.get(`/api/app-redirect?appId=${application.id}`);
    expect(String(strong.headers.location)).toMatch(/^https:\/\/app\.example\.edu\/kpi-id\/callback\?ticketId=/);

    const answer = await exchange(String(strong.headers.location), application, secret);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({
      NAME: "Квиток Строгий",
      AUTH_METHOD: "PASSWORD",
      AUTH_AMR: "pwd otp mfa",
      AUTH_ACR: "https://refeds.org/profile/mfa",
    });
  });

  it("an application without the requirement gets a one-factor ticket marked so", async () => {
    const person = await addPerson(t.app, { username: "plain", fullName: "Звичайна Людина" }, password);
    const { application, secret } = await addApplication(t.app);
    await grantAccess(t.app.db, person.id, application.id);
    const browser = testBrowser(t.app);
    const auth = await browser.post("/api/auth", { username: "plain", password });
    await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });
    const redirect = await browser.get(`/api/app-redirect?appId=${application.id}`);
    const answer = await exchange(String(redirect.headers.location), application, secret);
    expect(answer.json().data).toMatchObject({ AUTH_AMR: "pwd", AUTH_ACR: "https://refeds.org/profile/sfa" });
  });
});
