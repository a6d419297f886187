import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateSigningKeys } from "../../../src/model/oidc/key-rollover.ts";
import {
  decryptJwk,
  keyActivationDelaySeconds,
  loadPublishedKeys,
  SigningKeyDecryptionError,
} from "../../../src/model/oidc/keys.ts";
import { signingKeyRetentionSeconds } from "../../../src/protocols/oidc/provider.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import {
  addOidcClient,
  client,
  discover,
  startBackchannelReceiver,
  startSignIn,
  TestBrowser,
} from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";

describe.each(databaseKinds)("OpenID Connect logout and signing keys (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };
  let userId: string;
  let backchannel: Awaited<ReturnType<typeof startBackchannelReceiver>>;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    // The rotation test moves time past a new key's activation delay.
    ({ test, origin, issuer } = await createListeningTestApp(kind, {
      protocols: ["oidc"],
      clock: () => new Date(Date.now() + clockOffsetMs),
    }));
    backchannel = await startBackchannelReceiver();
    const person = await addPerson(
      test.app,
      { username: "leaving", fullName: "Марія Іваненко" },
      "correct horse battery",
    );
    userId = person.id;
    const created = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid", "profile", "offline_access"],
      firstParty: true,
      backchannelLogoutUri: backchannel.url,
    });
    rp = { id: created.application.id, secret: created.secret };
    await grantAccess(test.app.db, userId, rp.id);
  });
  afterAll(async () => {
    backchannel?.close();
    await test?.close();
  });

  async function signInThroughOidc(scope = "openid profile") {
    const config = await discover(issuer, rp.id, rp.secret);
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "leaving", "correct horse battery", { origin }));
    const start = await startSignIn(config, redirectUri, scope, { prompt: "consent" });
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { config, browser, tokens };
  }

  it("ends the KPI ID session on RP-initiated logout and notifies the application over the back channel", async () => {
    const { config, browser, tokens } = await signInThroughOidc();
    const endSession = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? "",
      post_logout_redirect_uri: postLogoutUri,
      state: "bye",
    });
    const page = await browser.request(endSession.href, { headers: { "accept-language": "en" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Yes, sign me out");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const confirmed = await browser.request(new URL(action, origin).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ xsrf, logout: "yes" }),
    });
    expect(confirmed.status).toBe(303);
    const location = new URL(confirmed.headers.get("location") ?? "", origin);
    expect(`${location.origin}${location.pathname}`).toBe(postLogoutUri);
    expect(location.searchParams.get("state")).toBe("bye");

    const sessions = await test.app.db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
    expect(sessions).toHaveLength(0);
    const user = await browser.request("/api/user");
    expect(user.status).toBe(401);
    const events = await test.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "application_id"])
      .where("user_id", "=", userId)
      .where("event_type", "in", ["oidc_sign_in", "oidc_logout"])
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { event_type: "oidc_sign_in", result: "success", application_id: rp.id },
      { event_type: "oidc_logout", result: "success", application_id: rp.id },
    ]);

    await expect.poll(() => backchannel.logoutTokens.length).toBeGreaterThan(0);
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { payload } = await jwtVerify(backchannel.logoutTokens[0] ?? "", jwks, { issuer, audience: rp.id });
    expect(payload.sub).toBe(userId);
    expect(payload.events).toHaveProperty(["http://schemas.openid.net/event/backchannel-logout"]);
  });

  it("notifies the applications over the back channel when the person signs out of KPI ID itself", async () => {
    const { browser } = await signInThroughOidc();
    const before = backchannel.logoutTokens.length;
    const logout = await browser.request("/api/auth/logout", {
      method: "POST",
      headers: { "content-type": "application/json", origin },
    });
    expect(logout.status).toBe(200);
    await expect.poll(() => backchannel.logoutTokens.length).toBe(before + 1);
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { payload } = await jwtVerify(backchannel.logoutTokens.at(-1) ?? "", jwks, { issuer, audience: rp.id });
    expect(payload.sub).toBe(userId);
    expect(payload.sid).toEqual(expect.any(String));
  });

  it("rotates keys without breaking tokens already issued", async () => {
    const before = await signInThroughOidc("openid profile offline_access");
    const oldKid = decodeProtectedHeader(before.tokens.id_token ?? "").kid;

    const rotation = await rotateSigningKeys(test.app.db, test.config.sessionSecret);
    expect(rotation.retired).toContain(oldKid);
    await test.app.oidc.refresh();

    const jwksResponse = await fetch(`${issuer}/jwks`);
    const kids = ((await jwksResponse.json()) as { keys: { kid: string; d?: string }[] }).keys.map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, rotation.kid]));
    // Published at once, but the old key keeps signing until every instance has had time to publish the new one.
    const meanwhile = await signInThroughOidc();
    expect(decodeProtectedHeader(meanwhile.tokens.id_token ?? "").kid).toBe(oldKid);
    clockOffsetMs = (keyActivationDelaySeconds + 1) * 1000;
    await test.app.oidc.refresh();

    // The ID token signed with the retired key still verifies against the published JWKS.
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    await expect(jwtVerify(before.tokens.id_token ?? "", jwks, { issuer, audience: rp.id })).resolves.toBeDefined();
    // Access and refresh tokens issued before the rotation keep working.
    await expect(client.fetchUserInfo(before.config, before.tokens.access_token, userId)).resolves.toMatchObject({
      sub: userId,
    });
    const refreshed = await client.refreshTokenGrant(before.config, before.tokens.refresh_token ?? "");
    expect(decodeProtectedHeader(refreshed.id_token ?? "").kid).toBe(rotation.kid);

    const after = await signInThroughOidc();
    expect(decodeProtectedHeader(after.tokens.id_token ?? "").kid).toBe(rotation.kid);

    // Once its tokens have expired the retired key is no longer published.
    const later = new Date(Date.now() + (signingKeyRetentionSeconds + 60) * 1000);
    const published = await loadPublishedKeys(
      test.app.db,
      test.config.sessionSecret,
      signingKeyRetentionSeconds,
      later,
    );
    expect(published.map((key) => key.kid)).toEqual([rotation.kid]);
  });

  it("makes exactly one first key when instances start together", async () => {
    const { ensureSigningKey } = await import("../../../src/model/oidc/keys.ts");
    await test.app.db.deleteFrom("oidc_signing_keys").execute();
    await Promise.all([1, 2, 3].map(() => ensureSigningKey(test.app.db, test.config.sessionSecret)));
    const active = await test.app.db
      .selectFrom("oidc_signing_keys")
      .select("kid")
      .where("retired_at", "is", null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it("keeps private keys encrypted at rest and never publishes them", async () => {
    const rows = await test.app.db.selectFrom("oidc_signing_keys").selectAll().execute();
    for (const row of rows) {
      expect(row.encrypted_jwk).not.toContain('"d"');
      expect(() => decryptJwk(row.kid, row.encrypted_jwk, "another-secret-0123456789-abcdefghijklmnopqrstu")).toThrow(
        SigningKeyDecryptionError,
      );
    }
    const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    for (const key of jwks.keys) expect(key).not.toHaveProperty("d");
  });
});
