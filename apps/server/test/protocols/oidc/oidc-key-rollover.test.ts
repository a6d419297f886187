import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareNextKey, promoteNextKey, retireKeys, rotateSigningKeys } from "../../../src/model/oidc/key-rollover.ts";
import { keyActivationDelaySeconds } from "../../../src/model/oidc/keys.ts";
import { listSigningKeys, signingKeyRetentionSeconds } from "../../../src/protocols/oidc/signing-keys.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";

/**
 * The staged rollover as a relying party meets it: it caches the JWKS once,
 * before the promotion, and never fetches it again; every ID token the new key
 * signs must still verify against that copy.
 */
describe.each(aboveModelDatabases)("OpenID Connect signing key rollover (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"], clock: now }));
    const person = await addPerson(test.app, { username: "rolling", fullName: "Олена Ткач" }, "correct horse battery");
    const created = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "offline_access"],
      firstParty: true,
    });
    rp = { id: created.application.id, secret: created.secret };
    await grantAccess(test.app.db, person.id, rp.id);
  });
  afterAll(() => test?.close());

  async function signInThroughOidc() {
    const config = await discover(issuer, rp.id, rp.secret);
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "rolling", "correct horse battery", { origin }));
    const start = await startSignIn(config, redirectUri, "openid profile offline_access", { prompt: "consent" });
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { config, idToken: tokens.id_token ?? "", refreshToken: tokens.refresh_token ?? "" };
  }
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;
  const fetchJwks = async () => (await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet;
  const states = async () =>
    (await listSigningKeys(test.app.db, test.config.sessionSecrets, now())).map((key) => [key.kid, key.state]);

  it("publishes the next key before it signs, promotes it, keeps the old one for the overlap, then retires it", async () => {
    const before = await signInThroughOidc();
    const oldKid = kidOf(before.idToken);

    const prepared = await prepareNextKey(test.app.db, test.config.sessionSecret, now());
    if (prepared.outcome !== "prepared") throw new Error(`prepare: ${prepared.outcome}`);
    const nextKid = prepared.kid;
    expect(await prepareNextKey(test.app.db, test.config.sessionSecret, now())).toEqual({
      outcome: "already",
      kid: nextKid,
    });
    await test.app.oidc.refresh();
    // The relying party fetches the JWKS now and caches it for good.
    const cachedJwks = await fetchJwks();
    expect(cachedJwks.keys.map((key) => key.kid)).toEqual([oldKid, nextKid]);
    expect(await states()).toEqual([
      [nextKid, "next"],
      [oldKid, "current"],
    ]);
    // Published, but not signing: however long it waits, only a promotion makes it sign.
    clockOffsetMs = 3 * 86_400_000;
    await test.app.oidc.refresh();
    const lastOld = await signInThroughOidc();
    expect(kidOf(lastOld.idToken)).toBe(oldKid);

    // Promoting a key some instance may not publish yet is refused.
    const fresh = await test.app.db
      .updateTable("oidc_signing_keys")
      .set({ created_at: now() })
      .where("kid", "=", nextKid)
      .executeTakeFirst();
    expect(fresh.numUpdatedRows).toBe(1n);
    expect(await promoteNextKey(test.app.db, now())).toMatchObject({ outcome: "too_soon", kid: nextKid });
    clockOffsetMs += (keyActivationDelaySeconds + 1) * 1000;
    expect(await promoteNextKey(test.app.db, now())).toEqual({ outcome: "promoted", kid: nextKid, retired: [oldKid] });
    await test.app.oidc.refresh();
    expect(await states()).toEqual([
      [nextKid, "current"],
      [oldKid, "previous"],
    ]);

    // Tokens the new key signs verify against the JWKS cached before the promotion.
    const after = await signInThroughOidc();
    expect(kidOf(after.idToken)).toBe(nextKid);
    const cached = createLocalJWKSet(cachedJwks);
    await expect(jwtVerify(after.idToken, cached, { issuer, audience: rp.id })).resolves.toBeDefined();
    const refreshed = await client.refreshTokenGrant(before.config, before.refreshToken);
    expect(kidOf(refreshed.id_token ?? "")).toBe(nextKid);
    await expect(jwtVerify(refreshed.id_token ?? "", cached, { issuer, audience: rp.id })).resolves.toBeDefined();
    // The old key is still in the live JWKS during the overlap: tokens it signed verify there.
    const live = createLocalJWKSet(await fetchJwks());
    // (The provider dates tokens by the real clock, not the test's moved one.)
    await expect(jwtVerify(lastOld.idToken, live, { issuer, audience: rp.id })).resolves.toBeDefined();

    // Retiring inside the overlap is refused unless forced; after it, the key leaves the JWKS.
    expect(await retireKeys(test.app.db, signingKeyRetentionSeconds, {}, now())).toMatchObject({
      outcome: "in_overlap",
      kid: oldKid,
    });
    expect(await retireKeys(test.app.db, signingKeyRetentionSeconds, { kid: nextKid }, now())).toEqual({
      outcome: "current",
    });
    clockOffsetMs += (signingKeyRetentionSeconds + 1) * 1000;
    expect(await retireKeys(test.app.db, signingKeyRetentionSeconds, {}, now())).toEqual({
      outcome: "retired",
      kids: [oldKid],
    });
    await test.app.oidc.refresh();
    expect((await fetchJwks()).keys.map((key) => key.kid)).toEqual([nextKid]);
    expect(await states()).toEqual([[nextKid, "current"]]);
  });

  it("drops a previous key from the JWKS on its own when the overlap ends, and retires a leaked one at once with force", async () => {
    const signer = (await states())[0]?.[0];
    const prepared = await prepareNextKey(test.app.db, test.config.sessionSecret, now());
    clockOffsetMs += (keyActivationDelaySeconds + 1) * 1000;
    const promoted = await promoteNextKey(test.app.db, now());
    expect(promoted).toMatchObject({ outcome: "promoted", kid: prepared.kid, retired: [signer] });
    await test.app.oidc.refresh();
    expect((await fetchJwks()).keys.map((key) => key.kid)).toEqual([prepared.kid, signer]);
    clockOffsetMs += (signingKeyRetentionSeconds + 1) * 1000;
    await test.app.oidc.refresh();
    expect((await fetchJwks()).keys.map((key) => key.kid)).toEqual([prepared.kid]);

    // A leaked key: promote its successor and take it out at once.
    const successor = await prepareNextKey(test.app.db, test.config.sessionSecret, now());
    clockOffsetMs += (keyActivationDelaySeconds + 1) * 1000;
    await promoteNextKey(test.app.db, now());
    const forced = await retireKeys(test.app.db, signingKeyRetentionSeconds, { kid: prepared.kid, force: true }, now());
    expect(forced).toEqual({ outcome: "retired", kids: [prepared.kid] });
    await test.app.oidc.refresh();
    expect((await fetchJwks()).keys.map((key) => key.kid)).toEqual([successor.kid]);
  });

  it("a second one-step rotation before the first one's key signs replaces that key: one next key, never two", async () => {
    const signer = (await states()).find(([, state]) => state === "current")?.[0];
    const first = await rotateSigningKeys(test.app.db, test.config.sessionSecret, now());
    const second = await rotateSigningKeys(test.app.db, test.config.sessionSecret, now());
    expect(second.retired).toEqual([signer]);
    const listed = await states();
    expect(listed.filter(([, state]) => state === "next")).toEqual([[second.kid, "next"]]);
    expect(listed.map(([kid]) => kid)).not.toContain(first.kid);
    // The one that waited signs once the activation delay has passed.
    clockOffsetMs += (keyActivationDelaySeconds + 1) * 1000;
    await test.app.oidc.refresh();
    expect(kidOf((await signInThroughOidc()).idToken)).toBe(second.kid);
  });
});
