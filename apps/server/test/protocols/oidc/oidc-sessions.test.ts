import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshTokenReuseGraceSeconds } from "../../../src/protocols/oidc/adapter.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, shiftedClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import {
  addOidcClient,
  client,
  confirmLogout,
  discover,
  startBackchannelReceiver,
  startSignIn,
  TestBrowser,
} from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";
const password = "correct horse battery";

/**
 * Issue 13, defects 2, 4 and 8: the provider follows the KPI ID session of each browser
 * (prompt=none, prompt=login, max_age, auth_time), and each browser has grants of its own.
 */
describe.each(aboveModelDatabases)("OpenID Connect and KPI ID sessions (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  const clock = shiftedClock();
  let firstParty: { id: string; secret: string };
  let thirdParty: { id: string; secret: string };
  let backchannel: Awaited<ReturnType<typeof startBackchannelReceiver>>;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"], clock: clock.now }));
    backchannel = await startBackchannelReceiver();
    const person = await addPerson(test.app, { username: "s.device", fullName: "Олена Коваленко" }, password);
    const settings = {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid" as const, "profile" as const, "offline_access" as const],
      backchannelLogoutUri: backchannel.url,
    };
    const first = await addOidcClient(test.app, { ...settings, firstParty: true });
    const third = await addOidcClient(test.app, { ...settings, firstParty: false });
    firstParty = { id: first.application.id, secret: first.secret };
    thirdParty = { id: third.application.id, secret: third.secret };
    await grantAccess(test.app.db, person.id, firstParty.id);
    await grantAccess(test.app.db, person.id, thirdParty.id);
  });
  afterAll(async () => {
    backchannel?.close();
    await test?.close();
  });

  /** Signs the browser in to KPI ID; answers when that session began (its sign-in), in seconds. */
  /** Signs in on the browser's sign-in screen; answers when (the session's start) and where it goes next. */
  async function signInTo(browser: TestBrowser) {
    const sessions = () => test.app.db.selectFrom("sessions").select(["id", "created_at"]).execute();
    const before = new Set((await sessions()).map((row) => row.id));
    const next = await browser.signIn("s.device", password);
    const created = (await sessions()).find((row) => !before.has(row.id));
    if (!created) throw new Error("no new session");
    return { signedInAt: Math.floor(created.created_at.getTime() / 1000), next };
  }

  /** A browser signed in to KPI ID `secondsAgo` ago (and never through OpenID Connect). */
  async function device(secondsAgo = 0) {
    const browser = new TestBrowser(origin);
    clock.advance(-secondsAgo);
    const { signedInAt } = await signInTo(browser);
    clock.advance(secondsAgo);
    return { browser, signedInAt };
  }

  async function authorize(app: { id: string; secret: string }, browser: TestBrowser, extra: Record<string, string>) {
    const config = await discover(issuer, app.id, app.secret);
    const start = await startSignIn(config, redirectUri, extra.scope ?? "openid profile", extra);
    const { leftTo, response } = await browser.follow(start.url.href);
    const tokens = async (answer = leftTo) => {
      if (!answer) throw new Error(`no answer for the application: ${response.status} ${response.url}`);
      return client.authorizationCodeGrant(config, answer, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
    };
    return { config, leftTo, response, tokens };
  }

  it("prompt=none signs in a person who signed in to KPI ID only, with auth_time of that sign-in", async () => {
    const { browser, signedInAt } = await device(90);
    const silent = await authorize(firstParty, browser, { prompt: "none" });
    expect(silent.leftTo?.searchParams.get("code")).toBeTruthy();
    const idToken = (await silent.tokens()).claims();
    expect(idToken?.auth_time).toBe(signedInAt);
    expect(idToken?.amr).toEqual(["pwd"]);
  });

  it("the provider's session cookie is a browser-session cookie when the provider signs the person in from KPI ID's session, as after the sign-in screen (KPI ID's session restores it)", async () => {
    const { browser } = await device();
    const signedIn = await authorize(firstParty, browser, {});
    expect(signedIn.leftTo?.searchParams.get("code")).toBeTruthy();
    const line = browser.setCookieLines.get("_session");
    expect(line).toBeDefined();
    // No Expires or Max-Age (it was 14 days): the KPI ID session alone decides how long the person stays signed in.
    expect(line).not.toMatch(/expires=|max-age=/i);
  });

  it("prompt=none for a third-party application: consent_required until the person consented once, then a code", async () => {
    const { browser } = await device();
    expect((await authorize(thirdParty, browser, { prompt: "none" })).leftTo?.searchParams.get("error")).toBe(
      "consent_required",
    );
    // Consent given on another device counts for this one too.
    const other = await device();
    const asked = await authorize(thirdParty, other.browser, {});
    const uid = new URL(asked.response.url).searchParams.get("uid") ?? "";
    const answered = await other.browser.request(`/api/oidc/interaction/${uid}/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ allow: true }),
    });
    expect(answered.status).toBe(200);
    expect((await authorize(thirdParty, browser, { prompt: "none" })).leftTo?.searchParams.get("code")).toBeTruthy();
  });

  it("prompt=login shows the sign-in screen to a signed-in person; a new sign-in continues with its own auth_time", async () => {
    const { browser } = await device(600);
    const asked = await authorize(firstParty, browser, { prompt: "login", ui_locales: "en" });
    expect(asked.leftTo).toBeUndefined();
    const screen = new URL(asked.response.url);
    expect(screen.pathname).toBe("/en/");
    expect(screen.search).toBe("?reauth=1");

    // The server kept the interaction: the new sign-in continues there.
    const { signedInAt: signedInAgainAt, next } = await signInTo(browser);
    expect(next).toMatch(/^\/api\/oidc\/interaction\/[\w-]+$/);
    const back = await browser.follow(next);
    expect((await asked.tokens(back.leftTo)).claims()?.auth_time).toBe(signedInAgainAt);
  });

  it("max_age: a sign-in older than it asks again (login_required with prompt=none); a recent one does not", async () => {
    const { browser, signedInAt } = await device(300);
    const fresh = await authorize(firstParty, browser, { max_age: "3600" });
    expect((await fresh.tokens()).claims()?.auth_time).toBe(signedInAt);
    const silent = await authorize(firstParty, browser, { prompt: "none", max_age: "60" });
    expect(silent.leftTo?.searchParams.get("error")).toBe("login_required");
    const asked = await authorize(firstParty, browser, { max_age: "60" });
    expect(asked.leftTo).toBeUndefined();
    expect(new URL(asked.response.url).searchParams.get("reauth")).toBe("1");
  });

  it("signing out on one device ends that device's tokens only; offline_access tokens and the other device's stay; one logout token, for that session", async () => {
    const laptop = await device();
    const phone = await device();
    const scope = { scope: "openid profile offline_access", prompt: "consent" };
    const onLaptop = await (await authorize(firstParty, laptop.browser, scope)).tokens();
    const online = await (await authorize(firstParty, laptop.browser, {})).tokens();
    const onPhone = await (await authorize(firstParty, phone.browser, {})).tokens();
    const config = await discover(issuer, firstParty.id, firstParty.secret);
    expect(decodeJwt(onLaptop.id_token ?? "").sid).not.toBe(decodeJwt(onPhone.id_token ?? "").sid);

    backchannel.logoutTokens.length = 0;
    const endSession = client.buildEndSessionUrl(config, {
      id_token_hint: online.id_token ?? "",
      post_logout_redirect_uri: postLogoutUri,
    });
    const confirmed = await confirmLogout(laptop.browser, issuer, await laptop.browser.request(endSession.href));
    expect(confirmed.headers.get("location")).toBe(postLogoutUri);

    expect((await client.tokenIntrospection(config, online.access_token)).active).toBe(false);
    expect((await client.tokenIntrospection(config, onPhone.access_token)).active).toBe(true);
    // Back-Channel Logout §2.7: offline access outlives the sign-out.
    const refreshed = await client.refreshTokenGrant(config, onLaptop.refresh_token ?? "");
    expect(refreshed.access_token).toBeTruthy();
    expect(backchannel.logoutTokens.map((token) => decodeJwt(token).sid)).toEqual([
      decodeJwt(online.id_token ?? "").sid,
    ]);
  });

  it("a token revoked, or a refresh token replayed, on one device ends that device's tokens only", async () => {
    const scope = { scope: "openid profile offline_access", prompt: "consent" };
    const [laptop, tablet, phone] = [await device(), await device(), await device()];
    const onLaptop = await (await authorize(firstParty, laptop.browser, scope)).tokens();
    const onTablet = await (await authorize(firstParty, tablet.browser, scope)).tokens();
    const onPhone = await (await authorize(firstParty, phone.browser, scope)).tokens();
    const config = await discover(issuer, firstParty.id, firstParty.secret);

    // Revoking an access token revokes what was issued with it (the library revokes by grant): the laptop's.
    await client.tokenRevocation(config, onLaptop.access_token);
    await expect(client.refreshTokenGrant(config, onLaptop.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    // A replay after the grace period revokes the tablet's grant.
    const rotated = await client.refreshTokenGrant(config, onTablet.refresh_token ?? "");
    clock.advance(refreshTokenReuseGraceSeconds + 1);
    await expect(client.refreshTokenGrant(config, onTablet.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await client.tokenIntrospection(config, rotated.access_token)).active).toBe(false);

    expect((await client.tokenIntrospection(config, onPhone.access_token)).active).toBe(true);
    expect((await client.refreshTokenGrant(config, onPhone.refresh_token ?? "")).access_token).toBeTruthy();
  });

  it("signing out on KPI ID's own screen ends that browser's tokens (its grants revoked), except offline_access ones", async () => {
    const signOut = (browser: TestBrowser) =>
      browser.request("/api/auth/logout", { method: "POST", headers: { "content-type": "application/json", origin } });
    const config = await discover(issuer, firstParty.id, firstParty.secret);

    const online = await device();
    const tokens = await (await authorize(firstParty, online.browser, {})).tokens();
    expect((await signOut(online.browser)).status).toBe(200);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    // The grant is revoked, not only the session gone: the token is deleted.
    const left = await test.app.db
      .selectFrom("oidc_payloads")
      .select("id")
      .where("type", "=", "AccessToken")
      .where("id", "=", tokens.access_token)
      .execute();
    expect(left).toEqual([]);

    const offline = await device();
    const scope = { scope: "openid profile offline_access", prompt: "consent" };
    const kept = await (await authorize(firstParty, offline.browser, scope)).tokens();
    expect((await signOut(offline.browser)).status).toBe(200);
    expect((await client.refreshTokenGrant(config, kept.refresh_token ?? "")).access_token).toBeTruthy();
  });
});
