import type { JsonWebKey } from "node:crypto";
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import {
  answerAtGoogle,
  finishGoogleSignIn,
  googleSettings,
  refusal,
  refused,
  sessionCookieOf,
  startGoogleSignIn,
} from "../../support/google.ts";
import { type IdTokenTamper, startTamperingProxy } from "../../support/tampering-proxy.ts";

const person = googleAccounts[0];
if (!person) throw new Error("no demo Google account");

/**
 * ID tokens a genuine code exchange returns but a compromised or buggy
 * provider altered (validly signed with its real key): openid-client must
 * refuse each, and no session may follow.
 */
describe.each(aboveModelDatabases)("ID token validation against a misbehaving provider (%s)", (kind) => {
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let standIn: RunningGoogleStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    proxy = await startTamperingProxy();
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0, issuer: proxy.url });
    proxy.target(standIn.port, standIn.signingKey as JsonWebKey);
    testApp = await createTestApp(kind, googleSettings(standIn), { protocols: [] });
    await insertUser(testApp.app.db, {
      username: "student",
      password_hash: null,
      full_name: person.name,
      email: person.email,
      tax_id: null,
      student_id: null,
      employee_id: null,
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
    await proxy?.close();
  });

  async function signInThrough(tamper: IdTokenTamper | undefined) {
    proxy.tamperWith(tamper);
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, person?.sub ?? "");
    const response = await finishGoogleSignIn(testApp.app, answer, started.cookie);
    const audit = await testApp.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("auth_method", "=", "GOOGLE")
      .where("event_type", "=", "sign_in")
      .orderBy("id", "desc")
      .executeTakeFirst();
    return { response, reason: audit?.reason };
  }

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it("signs in when the token passes through untouched (the proxy itself is transparent)", async () => {
    const { response } = await signInThrough(({ header, payload }) => ({ header, payload }));
    expect(response.statusCode).toBe(200);
    expect(sessionCookieOf(response)).toBeDefined();
  });

  it("refuses an ID token issued to another client (wrong audience)", async () => {
    const { response, reason } = await signInThrough(({ header, payload }) => ({
      header,
      payload: { ...payload, aud: "someone-else.apps.googleusercontent.com" },
    }));
    expect(refusal(response)).toEqual(refused);
    expect(reason).toBe("google.id_token_aud");
  });

  it("refuses an ID token with a nonce other than this sign-in's", async () => {
    const { response, reason } = await signInThrough(({ header, payload }) => ({
      header,
      payload: { ...payload, nonce: "replayed-from-another-sign-in" },
    }));
    expect(refusal(response)).toEqual(refused);
    expect(reason).toBe("google.id_token_nonce");
  });

  it("refuses an ID token from another issuer", async () => {
    const { response, reason } = await signInThrough(({ header, payload }) => ({
      header,
      payload: { ...payload, iss: "https://accounts.example.com" },
    }));
    expect(refusal(response)).toEqual(refused);
    expect(reason).toBe("google.id_token_iss");
  });

  it("refuses an expired ID token", async () => {
    const { response, reason } = await signInThrough(({ header, payload }) => ({
      header,
      payload: { ...payload, iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 },
    }));
    expect(refusal(response)).toEqual(refused);
    expect(reason).toBe("google.id_token_exp");
  });

  it("refuses an ID token signed by a key that is not the provider's", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const { response, reason } = await signInThrough(({ header, payload }) => ({
      header,
      payload: { ...payload, email: "someone.else@kpi.ua" },
      key: privateKey,
    }));
    expect(refusal(response)).toEqual(refused);
    expect(reason).toBe("google.oauth_invalid_response");
  });
});
