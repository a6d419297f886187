import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { TEST_ORIGIN } from "./app.ts";
import { type TestBrowserJar, testBrowser } from "./browser.ts";
import { softAuthenticator } from "./passkey-authenticator.ts";

/** The test relying party: the host and origin of the test app's PUBLIC_URL. */
export const testRelyingParty = { origin: TEST_ORIGIN, rpId: new URL(TEST_ORIGIN).hostname };

/** Signs in with the password as the web app does (no second factor), for an account-page browser. */
export async function passwordBrowser(app: FastifyInstance, username: string, password: string, address: string) {
  const browser = testBrowser(app, address);
  const auth = await browser.post("/api/auth", { username, password });
  expect(auth.statusCode).toBe(200);
  expect((await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId })).statusCode).toBe(200);
  return browser;
}

/** Adds a passkey from the account page of a signed-in browser; answers the authenticator and the stored passkey. */
export async function addPasskeyFrom(browser: TestBrowserJar, name: string, synced = false) {
  const authenticator = softAuthenticator({ ...testRelyingParty, synced });
  const options = await browser.post("/api/account/passkeys/options", {});
  expect(options.statusCode).toBe(200);
  const added = await browser.post("/api/account/passkeys", {
    name,
    response: authenticator.register(options.json().options),
  });
  expect(added.statusCode).toBe(200);
  return { authenticator, passkey: added.json() };
}

/** Asks for sign-in options in this browser and answers them with the authenticator. */
export async function passkeySignIn(browser: TestBrowserJar, authenticator: ReturnType<typeof softAuthenticator>) {
  const options = await browser.post("/api/auth/passkey/options", {});
  expect(options.statusCode).toBe(200);
  const response = authenticator.authenticate(options.json().options);
  return { answer: await browser.post("/api/auth/passkey", { response }), response };
}
