import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type GoogleAccount, googleAccounts } from "../../../../sandbox/src/google/accounts.ts";
import { signInAtStandIn } from "../../../../sandbox/src/google/http-driver.ts";
import type { RunningGoogleStandIn } from "../../../../sandbox/src/google/index.ts";

/** The stand-in's demo Google account at this index. */
export function demoGoogleAccount(index: number): GoogleAccount {
  const found = googleAccounts[index];
  if (!found) throw new Error(`no demo Google account ${index}`);
  return found;
}

/** The product's settings for a running stand-in. */
export function googleSettings(standIn: RunningGoogleStandIn): Record<string, string> {
  return {
    GOOGLE_ISSUER: standIn.issuer,
    GOOGLE_CLIENT_ID: standIn.client.clientId,
    GOOGLE_CLIENT_SECRET: standIn.client.clientSecret,
    GOOGLE_HOSTED_DOMAINS: standIn.env.GOOGLE_HOSTED_DOMAINS ?? "",
  };
}

export interface StartedSignIn {
  /** The provider's authorization URL the browser is sent to. */
  location: URL;
  /** The Cookie header the browser then sends: the pending sign-in cookie, and "continue to" when an appId came. */
  cookie: string;
  /** The cookie's signed value, as the browser holds it. */
  cookieValue: string;
}

/** `link`: the rest of an application's sign-in link (state, redirectUri) the login page passes on with appId. */
export async function startGoogleSignIn(
  app: FastifyInstance,
  appId?: string,
  link: Record<string, string> = {},
): Promise<StartedSignIn> {
  const query = appId === undefined ? "" : `?${new URLSearchParams({ appId, ...link })}`;
  const response = await app.inject({ method: "GET", url: `/api/google/redirect${query}` });
  if (response.statusCode !== 302) throw new Error(`redirect answered ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name.endsWith("kpi_id_google"));
  if (!cookie) throw new Error("no pending sign-in cookie");
  return {
    location: new URL(String(response.headers.location)),
    // As a browser sends them back: the value as Set-Cookie encoded it.
    cookie: response.cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; "),
    cookieValue: cookie.value,
  };
}

/** Picks the account at the stand-in and returns what the provider sends back to /google-auth. */
export async function answerAtGoogle(authorizationUrl: URL, subject: string) {
  const { redirectedTo } = await signInAtStandIn(authorizationUrl, subject);
  const code = redirectedTo.searchParams.get("code");
  const state = redirectedTo.searchParams.get("state");
  if (!code || !state) throw new Error(`no code in ${redirectedTo}`);
  return { code, state, redirectedTo };
}

/** What the /google-auth page does: GET /google/auth with code and state, carrying the browser's cookies. */
export function finishGoogleSignIn(
  app: FastifyInstance,
  answer: { code: string; state: string },
  cookie?: string,
): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams({ code: answer.code, state: answer.state });
  return app.inject({
    method: "GET",
    url: `/google/auth?${query}`,
    headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
  });
}

export function sessionCookieOf(response: LightMyRequestResponse) {
  return response.cookies.find((c) => c.name.endsWith("kpi_id_session") && c.value !== "");
}

/** The one-line summary of a refusal: status, code and whether a session cookie came with it. */
export function refusal(response: LightMyRequestResponse) {
  return { status: response.statusCode, code: response.json().code, session: sessionCookieOf(response) !== undefined };
}

export const refused = { status: 401, code: "google.failed", session: false };

/** What the /google-auth page does since the server owns the callback: a page load of /google/auth. */
export function finishGoogleSignInAsPage(
  app: FastifyInstance,
  answer: { code: string; state: string },
  cookie: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams({ code: answer.code, state: answer.state });
  return app.inject({
    method: "GET",
    url: `/google/auth?${query}`,
    headers: { accept: "text/html,application/xhtml+xml", cookie, ...headers },
  });
}
