import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateUser } from "../../../src/model/users/queries.ts";
import { findPersonForGoogle } from "../../../src/sign-in/google/person.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, confirmLogout, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";
const password = "correct horse battery";

/**
 * The request variations of the OpenID Foundation's Basic OP and RP-Initiated Logout OP
 * plans (docs/openid-connect.md maps each module to a test), through openid-client.
 */
describe.each(aboveModelDatabases)("OpenID Connect requests the conformance suite sends (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };
  let config: client.Configuration;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const person = await addPerson(
      test.app,
      { username: "suite", fullName: "Олена Коваленко", email: "suite@kpi.ua" },
      password,
    );
    const created = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid", "profile", "email"],
      firstParty: true,
    });
    rp = { id: created.application.id, secret: created.secret };
    await grantAccess(test.app.db, person.id, rp.id);
    config = await discover(issuer, rp.id, rp.secret);
  });
  afterAll(() => test?.close());

  async function signedInBrowser() {
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "suite", password, { origin }));
    return browser;
  }

  async function tokensWith(scope: string, extra: Record<string, string> = {}, browser?: TestBrowser) {
    const start = await startSignIn(config, redirectUri, scope, extra);
    const { leftTo } = await (browser ?? (await signedInBrowser())).follow(start.url.href);
    if (!leftTo?.searchParams.get("code")) throw new Error(`no code: ${leftTo?.href}`);
    return client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
  }

  it("oidcc-ensure-request-with-unknown-parameter, -other-scope-order, display, login_hint, ui_locales, claims_locales, acr_values: a code all the same", async () => {
    const tokens = await tokensWith("email profile openid", {
      display: "popup",
      login_hint: "suite",
      ui_locales: "en",
      claims_locales: "uk",
      acr_values: "1 2",
      extra_parameter: "ignored",
    });
    expect(tokens.claims()?.sub).toBeTruthy();
  });

  it("oidcc-alternate-happy-flow: scope entries and query parameters in reverse order, a code all the same", async () => {
    const start = await startSignIn(config, redirectUri, "email openid");
    const reversed = new URL(start.url.href);
    reversed.search = new URLSearchParams([...start.url.searchParams].reverse()).toString();
    const { leftTo } = await (await signedInBrowser()).follow(reversed.href);
    const tokens = await client.authorizationCodeGrant(config, leftTo ?? start.url, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub ?? "")).toMatchObject({
      email: "suite@kpi.ua",
    });
  });

  it("oidcc-userinfo-get, -post-header, -post-body: userinfo answers all three ways", async () => {
    const { access_token: token } = await tokensWith("openid email");
    const get = await client.fetchUserInfo(config, token, client.skipSubjectCheck);
    expect(get).toMatchObject({ email: "suite@kpi.ua", email_verified: false });
    const postHeader = await fetch(`${issuer}/me`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(await postHeader.json()).toEqual(get);
    const postBody = await fetch(`${issuer}/me`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ access_token: token }),
    });
    expect(await postBody.json()).toEqual(get);
  });

  it("oidcc-scope-email: email_verified is true only while the address is the one a Google sign-in proved", async () => {
    const person = await addPerson(
      test.app,
      { username: "proven", fullName: "Олена Коваленко", email: "proven@kpi.ua" },
      password,
    );
    await grantAccess(test.app.db, person.id, rp.id);
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "proven", password, { origin }));
    const emailClaims = async () => {
      const tokens = await tokensWith("openid email", {}, browser);
      return client.fetchUserInfo(config, tokens.access_token, person.id);
    };
    expect(await emailClaims()).toMatchObject({ email: "proven@kpi.ua", email_verified: false });
    // What a Google sign-in of the university's Workspace account with this verified address records.
    const identity = { subject: "google-proven", email: "proven@kpi.ua", emailVerified: true, hostedDomain: "kpi.ua" };
    await findPersonForGoogle(test.app.db, identity, ["kpi.ua"]);
    expect(await emailClaims()).toMatchObject({ email: "proven@kpi.ua", email_verified: true });
    // An operator changes the address: nobody proved the new one.
    await updateUser(test.app.db, person.id, { email: "other@kpi.ua" });
    expect(await emailClaims()).toMatchObject({ email: "other@kpi.ua", email_verified: false });
  });

  it("oidcc-id-token-hint: prompt=none with the ID token of the signed-in person gives a code", async () => {
    const browser = await signedInBrowser();
    const first = await tokensWith("openid", {}, browser);
    const again = await tokensWith("openid", { prompt: "none", id_token_hint: first.id_token ?? "" }, browser);
    expect(again.claims()?.sub).toBe(first.claims()?.sub);
  });

  it("oidcc-prompt-none-not-logged-in: login_required for a browser without a KPI ID session", async () => {
    const start = await startSignIn(config, redirectUri, "openid", { prompt: "none" });
    const { leftTo } = await new TestBrowser(origin).follow(start.url.href);
    expect(leftTo?.searchParams.get("error")).toBe("login_required");
  });

  async function endSession(browser: TestBrowser, params: Record<string, string>) {
    const query = new URLSearchParams(params);
    return browser.request(`${issuer}/session/end?${query}`);
  }

  it("oidcc-rp-initiated-logout-bad-post-logout-redirect-uri, -query-added-to-post-logout-redirect-uri, -modified-id-token-hint and -bad-id-token-hint: an error page, no redirect", async () => {
    const browser = await signedInBrowser();
    const { id_token: idToken = "" } = await tokensWith("openid", {}, browser);
    for (const unregistered of ["https://evil.example/", `${postLogoutUri}?foo=bar`]) {
      const badUri = await endSession(browser, { id_token_hint: idToken, post_logout_redirect_uri: unregistered });
      expect(badUri.status).toBe(400);
      expect(badUri.headers.get("location")).toBeNull();
    }
    const notAToken = await endSession(browser, {
      id_token_hint: "not-an-id-token",
      post_logout_redirect_uri: postLogoutUri,
    });
    expect(notAToken.status).toBe(400);
    expect(notAToken.headers.get("location")).toBeNull();
    const [header, payload, signature = ""] = idToken.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    const modified = await endSession(browser, { id_token_hint: `${header}.${payload}.${flipped}` });
    expect(modified.status).toBe(400);
  });

  it("oidcc-rp-initiated-logout-no-params, -no-post-logout-redirect-uri, -no-id-token-hint (client_id): asks, then shows KPI ID's own signed-out page", async () => {
    const variants: Record<string, string>[] = [{}, { client_id: rp.id, post_logout_redirect_uri: postLogoutUri }];
    for (const params of variants) {
      const browser = await signedInBrowser();
      const asked = await endSession(browser, params);
      const confirmed = await confirmLogout(browser, issuer, asked);
      const location = confirmed.headers.get("location") ?? "";
      // With client_id and a registered address, back to it; without, KPI ID's own page.
      expect(location).toBe("client_id" in params ? postLogoutUri : `${issuer}/session/end/success`);
    }
  });

  it("oidcc-rp-initiated-logout-only-state and -no-state: state comes back only when sent", async () => {
    for (const state of ["only-state", undefined]) {
      const browser = await signedInBrowser();
      const { id_token: idToken = "" } = await tokensWith("openid", {}, browser);
      const url = client.buildEndSessionUrl(config, {
        id_token_hint: idToken,
        post_logout_redirect_uri: postLogoutUri,
        ...(state ? { state } : {}),
      });
      const asked = await browser.request(url.href);
      const confirmed = await confirmLogout(browser, issuer, asked);
      expect(confirmed.headers.get("location")).toBe(state ? `${postLogoutUri}?state=${state}` : postLogoutUri);
    }
  });
});
