import { describe, expect, it } from "vitest";
import { issueResetToken } from "../../../src/model/recovery/tokens.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { client, type TestBrowser } from "../../support/oidc.ts";
import { oidcPeopleWithTokens } from "../../support/oidc-people.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "the old passphrase somebody saw";
const newPassword = "a brand new passphrase 2026";

/**
 * Issue 35, point 4: a refresh token with `offline_access` outlives an ordinary sign-out (that is what offline
 * access is for), but not a changed or reset password: whoever knew the old password may hold one.
 */
describe.each(aboveModelDatabases)("refresh tokens and a changed password (%s)", (kind) => {
  const oidc = oidcPeopleWithTokens(kind, { usernamePrefix: "offline-", password, redirectUri });

  /** A person signed in to an application with offline_access; the browser, its cookie and the refresh token. */
  async function signedInOffline() {
    const { userId, browser, config, tokens } = await oidc.signedInWithTokens();
    return { person: { id: userId }, browser, config, refreshToken: tokens.refresh_token ?? "" };
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
      headers: { "content-type": "application/json", origin: oidc.origin },
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
    const token = await issueResetToken(oidc.test.app.db, person.id, "email", 3600, oidc.test.app.clock());
    const reset = await fetch(new URL("/api/recovery/reset", oidc.origin), {
      method: "POST",
      body: JSON.stringify({ token, newPassword }),
      headers: { "content-type": "application/json", origin: oidc.origin },
    });
    expect(reset.status).toBe(200);
    expect(await refusedCode(client.refreshTokenGrant(config, refreshToken))).toBe("invalid_grant");
  });
});
