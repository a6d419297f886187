import { casPaths } from "@kpi-id/contracts";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { testBrowser } from "../../support/browser.ts";
import { manualClock } from "../../support/campus.ts";
import { casApplication, casXml, ticketIn, validateAt } from "../../support/cas.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addStudent } from "../../support/developers.ts";

const password = "developer passphrase 1";

/**
 * Issue 59: a CAS service whose application requires a second factor, reached by a person signed in with a
 * password only. The login waits on the server while the person sets a factor up and signs in with it (the way
 * the ticket path does it, mfa-set-up-continue.test.ts), then goes on to the service with a ticket that validates
 * and says how the person signed in.
 */
describe.each(aboveModelDatabases)("CAS and an application that requires a second factor (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["cas"], clock: clock.now });
  });
  afterAll(() => t.close());

  it("a password session is led to set up a second factor, signs in with it, and the login goes on to the service", async () => {
    const student = await addStudent(t.app, "exam");
    const service = "https://exam.example.edu/cas/login?next=%2Fgrades";
    const { application } = await casApplication(t.app, service, { people: [student.person.id], requireMfa: true });
    const browser = testBrowser(t.app);
    const auth = await browser.post("/api/auth", { username: student.username, password });
    await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });

    const login = await browser.get(`${casPaths.login}?${new URLSearchParams({ service })}`);
    const continuePath = String(login.headers.location);
    expect(continuePath).toMatch(/^\/cas\/continue\/[A-Za-z0-9_-]+$/);
    // No factor to prove yet: the account page's set-up, the login waiting; no ticket.
    expect((await browser.get(continuePath)).headers.location).toBe("/uk/account#second-factor");
    const { secret } = (await browser.post("/api/account/totp", {})).json<{ secret: string }>();
    const codeNow = () => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    const confirmed = await browser.post("/api/account/totp/confirm", { code: await codeNow() });
    expect(confirmed.json<{ next?: string }>().next).toBe("/uk/?reauth=1&mfa=1");
    // Setting the factor up did not make this session two-factor: going on still asks for it, now as a sign-in.
    clock.advance(30);
    expect((await browser.get(continuePath)).headers.location).toBe("/uk/?reauth=1&mfa=1");
    const issued = () =>
      t.app.db.selectFrom("cas_tickets").select("kind").where("application_id", "=", application.id).execute();
    expect(await issued()).toEqual([]);

    const again = await browser.post("/api/auth", { username: student.username, password });
    expect(again.json().secondFactor).toBe("totp");
    const code = await codeNow();
    expect(
      (await browser.post("/api/auth/second-factor", { sessionId: again.json().sessionId, code })).statusCode,
    ).toBe(200);
    const exchanged = await browser.post("/api/auth/internal", { sessionId: again.json().sessionId });
    expect(exchanged.json().next).toBe(continuePath);
    const done = await browser.get(continuePath);
    const location = String(done.headers.location);
    expect(location.startsWith(`${service}&ticket=ST-`)).toBe(true);

    const answer = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: ticketIn(location) })).body,
    );
    expect(answer.text("user")).toBe(student.username);
    expect(answer.texts("amr")).toEqual(["pwd", "otp", "mfa"]);
    expect(answer.text("acr")).toBe("https://refeds.org/profile/mfa");
    // The person presented credentials after the login began.
    expect(answer.text("isFromNewLogin")).toBe("true");
    // The login was answered: its continuation issues nothing more.
    expect((await browser.get(continuePath)).statusCode).toBe(404);
  });

  it("a person who has a factor is sent to sign in with it; a two-factor session then gets its ticket at once", async () => {
    const student = await addStudent(t.app, "strong");
    const service = "https://strong-exam.example.edu/";
    await casApplication(t.app, service, { people: [student.person.id], requireMfa: true });
    const browser = testBrowser(t.app);
    const first = await browser.post("/api/auth", { username: student.username, password });
    await browser.post("/api/auth/internal", { sessionId: first.json().sessionId });
    const { secret } = (await browser.post("/api/account/totp", {})).json<{ secret: string }>();
    const codeNow = () => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    await browser.post("/api/account/totp/confirm", { code: await codeNow() });
    clock.advance(30);

    const login = await browser.get(`${casPaths.login}?${new URLSearchParams({ service })}`);
    const asked = await browser.get(String(login.headers.location));
    expect(asked.headers.location).toBe("/uk/?reauth=1&mfa=1");
    expect(ticketIn(String(asked.headers.location))).toBe("");
    // gateway never asks: back to the service without a ticket.
    const gateway = await browser.get(`${casPaths.login}?${new URLSearchParams({ service, gateway: "true" })}`);
    expect(gateway.headers.location).toBe(service);

    const again = await browser.post("/api/auth", { username: student.username, password });
    await browser.post("/api/auth/second-factor", { sessionId: again.json().sessionId, code: await codeNow() });
    await browser.post("/api/auth/internal", { sessionId: again.json().sessionId });
    // A later login of this two-factor session needs nothing more.
    clock.advance(30);
    const later = await browser.get(`${casPaths.login}?${new URLSearchParams({ service })}`);
    const ticket = ticketIn(String((await browser.get(String(later.headers.location))).headers.location));
    expect(ticket).toMatch(/^ST-/);
    const answer = casXml((await validateAt(t.app, casPaths.serviceValidate, { service, ticket })).body);
    expect(answer.text("acr")).toBe("https://refeds.org/profile/mfa");
    expect(answer.text("isFromNewLogin")).toBe("false");
  });
});
