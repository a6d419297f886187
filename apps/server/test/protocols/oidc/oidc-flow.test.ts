import { claimsByScope } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshTokenReuseGraceSeconds } from "../../../src/protocols/oidc/adapter.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, shiftedClock, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";

describe.each(databaseKinds)("OpenID Connect sign-in (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let confidential: { id: string; secret: string };
  let userId: string;
  const clock = shiftedClock();

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"], clock: clock.now }));
    const person = await addPerson(
      test.app,
      {
        username: "o.koval",
        fullName: "Олена Коваленко",
        email: "o.koval@kpi.ua",
        studentId: "KV-1",
        taxId: "3012345678",
      },
      "correct horse battery",
    );
    userId = person.id;
    const rp = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid", "profile", "email", "kpi", "offline_access"],
      firstParty: true,
    });
    confidential = { id: rp.application.id, secret: rp.secret };
    await grantAccess(test.app.db, userId, rp.application.id);
  });
  afterAll(() => test?.close());

  async function signedInBrowser() {
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "o.koval", "correct horse battery", { origin }));
    return browser;
  }

  async function codeFlow(config: client.Configuration, browser: TestBrowser, scope: string) {
    const start = await startSignIn(config, redirectUri, scope, { prompt: "consent" });
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("the sign-in did not return to the application");
    return { callback: leftTo, ...start };
  }

  it("signs a KPI ID session in without a prompt: code, tokens, ID token, userinfo, refresh with rotation", async () => {
    const config = await discover(issuer, confidential.id, confidential.secret);
    expect(config.serverMetadata().code_challenge_methods_supported).toEqual(["S256"]);
    const browser = await signedInBrowser();
    const { callback, verifier, state } = await codeFlow(config, browser, "openid profile email kpi offline_access");
    expect(callback.origin + callback.pathname).toBe(redirectUri);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const idToken = tokens.claims();
    expect(idToken?.sub).toBe(userId);
    expect(idToken?.iss).toBe(issuer);
    expect(idToken?.amr).toEqual(["pwd"]);
    expect(idToken?.acr).toBe("https://refeds.org/profile/sfa");
    expect(config.serverMetadata().acr_values_supported).toEqual([
      "https://refeds.org/profile/sfa",
      "https://refeds.org/profile/mfa",
    ]);

    const info = await client.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({
      sub: userId,
      name: "Олена Коваленко",
      given_name: "Олена",
      family_name: "Коваленко",
      email: "o.koval@kpi.ua",
      // Entered by an operator, never proven to KPI ID (a Google sign-in with it would be).
      email_verified: false,
      kpi_student_id: "KV-1",
    });
    expect(info).not.toHaveProperty("kpi_tax_id");
    // Nothing beyond what the developers' page lists for these scopes: both read contracts' claimsByScope.
    const listed = (["openid", "profile", "email", "kpi", "offline_access"] as const).flatMap(
      (scope): readonly string[] => claimsByScope[scope],
    );
    expect(Object.keys(info).filter((claim) => !listed.includes(claim))).toEqual([]);

    const refreshToken = tokens.refresh_token;
    if (!refreshToken) throw new Error("no refresh token under offline_access");
    const refreshed = await client.refreshTokenGrant(config, refreshToken);
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(refreshToken);

    // Past the grace period for concurrent use, the rotated-away refresh token is refused,
    // and its replay revokes the whole grant.
    clock.advance(refreshTokenReuseGraceSeconds + 1);
    await expect(client.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" });
    const introspected = await client.tokenIntrospection(config, refreshed.access_token);
    expect(introspected.active).toBe(false);
  });

  it("lets two concurrent refreshes with one refresh token both succeed; reuse after the grace period revokes the grant", async () => {
    const config = await discover(issuer, confidential.id, confidential.secret);
    const { callback, verifier, state } = await codeFlow(config, await signedInBrowser(), "openid offline_access");
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    // Two tabs at once: both requests in flight together.
    const together = await Promise.all([0, 1].map(() => client.refreshTokenGrant(config, tokens.refresh_token ?? "")));
    const refreshToken = together[0]?.refresh_token ?? "";
    expect(together.map((answer) => Boolean(answer.access_token && answer.refresh_token))).toEqual([true, true]);
    // The second request arrives just after the first has used the token.
    const first = await client.refreshTokenGrant(config, refreshToken);
    const second = await client.refreshTokenGrant(config, refreshToken);
    // Both tabs carry on with what they got.
    expect((await client.tokenIntrospection(config, first.access_token)).active).toBe(true);
    const again = await client.refreshTokenGrant(config, second.refresh_token ?? "");
    expect(again.access_token).toBeTruthy();

    clock.advance(refreshTokenReuseGraceSeconds + 1);
    await expect(client.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await client.tokenIntrospection(config, again.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, first.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("refuses a reused code and revokes the tokens issued from it", async () => {
    const config = await discover(issuer, confidential.id, confidential.secret);
    const browser = await signedInBrowser();
    const { callback, verifier, state } = await codeFlow(config, browser, "openid profile");
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);

    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("refuses a client with a wrong secret", async () => {
    const config = await discover(issuer, confidential.id, "not-the-secret");
    const browser = await signedInBrowser();
    const good = await discover(issuer, confidential.id, confidential.secret);
    const { callback, verifier, state } = await codeFlow(good, browser, "openid");
    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ status: 401, cause: [{ parameters: { error: "invalid_client" } }] });
  });

  it("revokes an access token", async () => {
    const config = await discover(issuer, confidential.id, confidential.secret);
    const browser = await signedInBrowser();
    const { callback, verifier, state } = await codeFlow(config, browser, "openid");
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await client.tokenRevocation(config, tokens.access_token);
    await expect(client.fetchUserInfo(config, tokens.access_token, userId)).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: "invalid_token" } }],
    });
  });
});
