import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, shiftedClock, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addAuthenticator } from "../../support/mfa.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

type Started = Awaited<ReturnType<typeof startSignIn>>;

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery staple";
const refedsMfa = "https://refeds.org/profile/mfa";

describe.each(aboveModelDatabases)("OpenID Connect step-up to a second factor (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  const clock = shiftedClock();

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"], clock: clock.now }));
  });
  afterAll(() => test?.close());

  /** A person signed in by password only, who has an authenticator app since; and an application. */
  async function passwordSession(username: string, requireMfa = false) {
    const person = await addPerson(test.app, { username, fullName: "Олена Коваленко" }, password);
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, username, password, { origin }));
    // Set up a time step ago, so the code at sign-in is a new one (the provider keeps real time: no clock moves here).
    const codeAt = await addAuthenticator(test.app, person, new Date(clock.now().getTime() - 30_000));
    const rp = await addOidcClient(test.app, { redirectUris: [redirectUri], scopes: ["openid"], firstParty: true });
    await grantAccess(test.app.db, person.id, rp.application.id);
    if (requireMfa) {
      await test.app.db
        .updateTable("applications")
        .set({ require_mfa: true })
        .where("id", "=", rp.application.id)
        .execute();
    }
    const config = await discover(issuer, rp.application.id, rp.secret);
    return { browser, codeAt, config };
  }

  /** The sign-in screen with the code: password, then the authenticator's next code; answers `next`. */
  async function signInWithCode(browser: TestBrowser, username: string, code: string) {
    const post = (path: string, body: unknown) =>
      browser.request(path, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", origin },
      });
    const auth = await (await post("/api/auth", { username, password })).json();
    expect(auth.secondFactor).toBe("totp");
    expect((await post("/api/auth/second-factor", { sessionId: auth.sessionId, code })).status).toBe(200);
    return (await (await post("/api/auth/internal", { sessionId: auth.sessionId })).json()).next as string;
  }

  async function stepUpFlow(username: string, extra: Record<string, string>, requireMfa = false) {
    const { browser, codeAt, config } = await passwordSession(username, requireMfa);
    const start = await startSignIn(config, redirectUri, "openid", extra);
    const asked = await browser.follow(start.url.href);
    // Not back at the application: KPI ID's sign-in screen, even though the person is signed in.
    expect(asked.leftTo).toBeUndefined();
    const screen = new URL(asked.response.url);
    expect(screen.pathname + screen.search).toBe("/uk/?reauth=1&mfa=1");
    const next = await signInWithCode(browser, username, await codeAt(clock.now()));
    expect(next).toMatch(/\/oidc\/interaction\//);
    const { leftTo } = await browser.follow(next);
    if (!leftTo) throw new Error("the step-up did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return tokens.claims();
  }

  it("acr_values with REFEDS MFA asks a password session for the second factor; the ID token says so", async () => {
    const claims = await stepUpFlow("stepping-up", { acr_values: refedsMfa });
    expect(claims?.acr).toBe(refedsMfa);
    expect(claims?.amr).toEqual(["pwd", "otp", "mfa"]);
  });

  it("an application the operator requires MFA for asks for it without acr_values", async () => {
    const claims = await stepUpFlow("required-by-app", {}, true);
    expect(claims?.acr).toBe(refedsMfa);
  });

  it("prompt=none with acr_values and a one-factor session answers login_required", async () => {
    const { browser, config } = await passwordSession("silent");
    const start = await startSignIn(config, redirectUri, "openid", { acr_values: refedsMfa, prompt: "none" });
    const { leftTo } = await browser.follow(start.url.href);
    expect(leftTo?.searchParams.get("error")).toBe("login_required");
  });

  /** The account page's set-up: a secret, then its first code; answers the confirmation's JSON. */
  async function setUpAuthenticator(browser: TestBrowser) {
    const post = (path: string, body: unknown) =>
      browser.request(path, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", origin },
      });
    const setup = await post("/api/account/totp", {});
    expect(setup.status).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const code = await generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
    const confirmed = await post("/api/account/totp/confirm", { code });
    expect(confirmed.status).toBe(200);
    return (await confirmed.json()) as { recoveryCodes: string[]; next?: string };
  }

  /**
   * After set-up the browser goes on where the server says. Setting the factor up did not make the session
   * two-factor (issue 35): the application's sign-in asks for a sign-in with it (here a recovery code), and then
   * the application gets a two-factor sign-in.
   */
  async function goOn(
    browser: TestBrowser,
    { next, recoveryCodes }: { next?: string; recoveryCodes: string[] },
    username: string,
    config: client.Configuration,
    start: Started,
  ) {
    expect(next).toBe("/uk/?reauth=1&mfa=1");
    const onward = await signInWithCode(browser, username, recoveryCodes[0] ?? "");
    const { leftTo } = await browser.follow(onward);
    if (!leftTo) throw new Error("the set-up did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return tokens.claims();
  }

  it("a person with no second factor and no Diia is led to set one up, then goes on to the application", async () => {
    const person = await addPerson(test.app, { username: "one-factor", fullName: "Один Фактор" }, password);
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "one-factor", password, { origin }));
    const rp = await addOidcClient(test.app, { redirectUris: [redirectUri], scopes: ["openid"], firstParty: true });
    await grantAccess(test.app.db, person.id, rp.application.id);
    const config = await discover(issuer, rp.application.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid", { acr_values: refedsMfa });
    // Not a loop of sign-in screens, nor a refusal: the account page's second-factor card.
    const asked = await browser.follow(start.url.href);
    expect(asked.leftTo).toBeUndefined();
    const screen = new URL(asked.response.url);
    expect(screen.pathname + screen.hash).toBe("/uk/account");
    const setUp = await setUpAuthenticator(browser);
    expect(setUp.recoveryCodes).toHaveLength(10);
    const claims = await goOn(browser, setUp, "one-factor", config, start);
    expect(claims?.acr).toBe(refedsMfa);
    expect(claims?.amr).toEqual(expect.arrayContaining(["pwd", "otp", "mfa"]));
  });

  it("a person the operator requires a factor of keeps the application's sign-in through the set-up", async () => {
    const person = await addPerson(test.app, { username: "must-set-up", fullName: "Має Налаштувати" }, password);
    await test.app.db.updateTable("users").set({ require_mfa: true }).where("id", "=", person.id).execute();
    const rp = await addOidcClient(test.app, { redirectUris: [redirectUri], scopes: ["openid"], firstParty: true });
    await grantAccess(test.app.db, person.id, rp.application.id);
    const config = await discover(issuer, rp.application.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid");
    const browser = new TestBrowser(origin);
    const screen = new URL((await browser.follow(start.url.href)).response.url);
    expect(screen.pathname).toBe("/uk/");
    // The password signs in, but the next stop is the set-up, not the application (nor the apps list).
    expect(await browser.signIn("must-set-up", password)).toBe("/uk/account#second-factor");
    const claims = await goOn(browser, await setUpAuthenticator(browser), "must-set-up", config, start);
    expect(claims?.amr).toEqual(expect.arrayContaining(["otp", "mfa"]));
  });
});
