import { randomBytes } from "node:crypto";
import { TestBrowser } from "@kpi-id/server/testing";
import { type Client, challenge, redirectUri, verifier } from "./oidc-client.ts";

/**
 * One OpenID Connect provider as the side-by-side bench drives it. Everything a relying party and a browser
 * do is the same code for every provider (signInThroughCodeFlow, refreshTokens below); a provider only says
 * where its endpoints are and how its own sign-in page posts a password, which no standard fixes.
 */
export interface CodeFlowProvider {
  name: string;
  origin: string;
  authorizePath: string;
  tokenPath: string;
  client: Client;
  scope: string;
  /**
   * What the relying party adds to be given a refresh token too: KPI ID (oidc-provider) issues one only for
   * offline_access asked with prompt=consent; Glewlwyd issues one with every code, so it needs nothing.
   */
  offlineAuthorizeParameters: Record<string, string>;
  /** What the provider's sign-in page does with a password; answers the address that carries the authorization on. */
  submitPassword(browser: TestBrowser, username: string, password: string, authorizeUrl: string): Promise<string>;
  /** The server's process id, for its CPU time and memory. */
  pid: number;
}

/** What a token answer carries: an ID token after a sign-in; after a refresh, KPI ID sends a new one, Glewlwyd none. */
export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

/** POST to the token endpoint with client_secret_basic; throws unless it answers 200 with the tokens expected. */
async function tokenRequest(
  provider: CodeFlowProvider,
  form: Record<string, string>,
  expected: readonly (keyof Tokens)[],
): Promise<Tokens> {
  const { id, secret } = provider.client;
  const response = await fetch(`${provider.origin}${provider.tokenPath}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
    },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${form.grant_type}: token endpoint answered ${response.status} ${text}`);
  const body = JSON.parse(text) as Partial<Tokens>;
  const missing = expected.filter((name) => !body[name]);
  if (missing.length > 0) throw new Error(`${form.grant_type}: the answer lacks ${missing.join(", ")}: ${text}`);
  return body as Tokens;
}

/**
 * A whole sign-in in a fresh browser, as a person without a session makes it: authorize (to the sign-in page),
 * the password, back to the authorization for the code, then the relying party's code exchange (PKCE S256,
 * client secret); `offline` asks for a refresh token as well. Throws on any step that does not answer as it should.
 */
export async function signInThroughCodeFlow(
  provider: CodeFlowProvider,
  username: string,
  password: string,
  options: { offline: boolean },
): Promise<Tokens> {
  const browser = new TestBrowser(provider.origin);
  const state = randomBytes(12).toString("base64url");
  const query = new URLSearchParams({
    client_id: provider.client.id,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: provider.scope,
    state,
    // Glewlwyd refuses a code request without a nonce (OpenID Connect requires one only for implicit flows).
    nonce: randomBytes(12).toString("base64url"),
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...(options.offline ? provider.offlineAuthorizeParameters : {}),
  });
  const authorizeUrl = `${provider.origin}${provider.authorizePath}?${query}`;
  const page = await browser.follow(authorizeUrl);
  await page.response.arrayBuffer();
  // Neither server has its web pages here (KPI ID's are not built, Glewlwyd's are not served): the page answers 404.
  if (page.leftTo || ![200, 404].includes(page.response.status)) {
    throw new Error(`authorize did not reach the sign-in page: ${page.response.status} ${page.leftTo ?? ""}`);
  }
  const next = await provider.submitPassword(browser, username, password, authorizeUrl);
  const { leftTo } = await browser.follow(next);
  const code = leftTo?.searchParams.get("code");
  if (!code || leftTo?.searchParams.get("state") !== state) throw new Error(`no code for the state: ${leftTo}`);
  return tokenRequest(
    provider,
    { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier },
    options.offline ? ["access_token", "id_token", "refresh_token"] : ["access_token", "id_token"],
  );
}

/** The refresh-token grant; throws unless the answer carries a new refresh token (rotation). */
export async function refreshTokens(provider: CodeFlowProvider, refreshToken: string): Promise<Tokens> {
  const form = { grant_type: "refresh_token", refresh_token: refreshToken };
  const tokens = await tokenRequest(provider, form, ["access_token", "refresh_token"]);
  if (tokens.refresh_token === refreshToken) throw new Error("the refresh token was not rotated");
  return tokens;
}
