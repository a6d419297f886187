import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueResetToken } from "../../../src/model/recovery/tokens.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "the old passphrase somebody saw";
const newPassword = "a brand new passphrase 2026";

/**
 * Issue 35, point 4: a refresh token with `offline_access` outlives an ordinary sign-out (that is what offline
 * access is for), but not a changed or reset password: whoever knew the old password may hold one.
 */
describe.each(databaseKinds)("refresh tokens and a changed password (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let people = 0;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind));
  });
  afterAll(() => test?.close());

  /** A person signed in to an application with offline_access; the browser, its cookie and the tokens. */
  async function signedInOffline() {
    people += 1;
    const username = `offline-${people}`;
    const person = await addPerson(test.app, { username, fullName: "Офлайн Доступ" }, password);
    const added = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "offline_access"],
      firstParty: true,
    });
    await grantAccess(test.app.db, person.id, added.application.id);
    const browser = new TestBrowser(origin);
    const cookie = await signIn(test.app, username, password, { origin });
    browser.setCookie(cookie);
    const config = await discover(issuer, added.application.id, added.secret);
    const start = await startSignIn(config, redirectUri, "openid offline_access", { prompt: "consent" });
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("the person was not signed in to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    if (!tokens.refresh_token) throw new Error("no refresh token under offline_access");
    return { person, browser, config, refreshToken: tokens.refresh_token };
  }

  const refusedCode = (attempt: Promise<unknown>) =>
    attempt.then(
      () => "accepted",
      (error: { error?: string }) => error.error,
    );

  const post = (browser: TestBrowser, path: string, body: object) =>
    browser.request(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", origin },
    });

  it("an ordinary sign-out keeps the offline_access refresh token working", async () => {
    const { browser, config, refreshToken } = await signedInOffline();
    expect((await post(browser, "/api/auth/logout", {})).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(config, refreshToken);
    expect(refreshed.access_token).toBeTruthy();
  });

  it("a password change on the account page revokes it", async () => {
    const { browser, config, refreshToken } = await signedInOffline();
    const changed = await post(browser, "/api/account/password", { currentPassword: password, newPassword });
    expect(changed.status).toBe(200);
    expect(await refusedCode(client.refreshTokenGrant(config, refreshToken))).toBe("invalid_grant");
  });

  it("a password reset (the emailed link) revokes it", async () => {
    const { person, config, refreshToken } = await signedInOffline();
    const token = await issueResetToken(test.app.db, person.id, "email", 3600, test.app.clock());
    const reset = await fetch(new URL("/api/recovery/reset", origin), {
      method: "POST",
      body: JSON.stringify({ token, newPassword }),
      headers: { "content-type": "application/json", origin },
    });
    expect(reset.status).toBe(200);
    expect(await refusedCode(client.refreshTokenGrant(config, refreshToken))).toBe("invalid_grant");
  });
});
