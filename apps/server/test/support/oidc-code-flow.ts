import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { signIn } from "./campus.ts";
import { TestBrowser } from "./oidc.ts";

/**
 * A confidential relying party's side of the authorization code flow over real HTTP, with PKCE and a fixed verifier:
 * what the statement counts (platform/db/statement-counts.test.ts) and the OpenID Connect benchmarks (bench/oidc*.ts)
 * both drive, so the flow they count and the flow they time are one.
 */
export const pkceVerifier = "oidc-code-flow-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
export const pkceChallenge = createHash("sha256").update(pkceVerifier).digest("base64url");

export interface ClientCredentials {
  id: string;
  secret: string;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

/** POST /oidc/token with client_secret_basic; throws unless it answers 200. */
export async function tokenRequest(
  origin: string,
  client: ClientCredentials,
  form: Record<string, string>,
): Promise<TokenSet> {
  const response = await fetch(`${origin}/oidc/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as TokenSet;
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** The address /oidc/auth is asked at for a code, with the PKCE challenge. */
function authorizePath(client: ClientCredentials, redirectUri: string, scope: string, more: Record<string, string>) {
  const query = new URLSearchParams({
    client_id: client.id,
    response_type: "code",
    redirect_uri: redirectUri,
    scope,
    ...more,
    code_challenge: pkceChallenge,
    code_challenge_method: "S256",
  });
  return `/oidc/auth?${query}`;
}

/** The code a redirect back to the relying party carries, exchanged for tokens. */
async function exchangeCode(origin: string, client: ClientCredentials, redirectUri: string, leftTo: URL | undefined) {
  const code = leftTo?.searchParams.get("code");
  if (!code) throw new Error(`no code: ${leftTo}`);
  return tokenRequest(origin, client, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: pkceVerifier,
  });
}

/**
 * One real authorization code flow by a person already signed in to KPI ID, asking for offline_access with
 * prompt=consent, so the tokens carry a refresh token too.
 */
export async function signedInCodeFlowTokens(
  app: FastifyInstance,
  origin: string,
  client: ClientCredentials,
  person: { username: string; password: string },
  redirectUri: string,
): Promise<TokenSet> {
  const browser = new TestBrowser(origin);
  browser.setCookie(await signIn(app, person.username, person.password, { origin }));
  const path = authorizePath(client, redirectUri, "openid profile email kpi offline_access", { prompt: "consent" });
  const { leftTo } = await browser.follow(path);
  return exchangeCode(origin, client, redirectUri, leftTo);
}

/**
 * What a relying party and a browser without a session do: authorize → the sign-in page (404 when the web app is
 * not built; the rest of the flow is the same) → the password (POST /api/auth, /api/auth/internal) → back to the
 * interaction → the code → the token. Answers the sign-in page's status with the tokens.
 */
export async function passwordLoginCodeFlow(
  origin: string,
  client: ClientCredentials,
  person: { username: string; password: string },
  redirectUri: string,
): Promise<{ pageStatus: number; tokens: TokenSet }> {
  const browser = new TestBrowser(origin);
  const page = await browser.follow(authorizePath(client, redirectUri, "openid profile", {}));
  if (![200, 404].includes(page.response.status) || !browser.cookies.has("kpi_id_continue"))
    throw new Error(`the sign-in page answered ${page.response.status}`);
  await page.response.text();
  const next = await browser.signIn(person.username, person.password);
  const { leftTo } = await browser.follow(next);
  return { pageStatus: page.response.status, tokens: await exchangeCode(origin, client, redirectUri, leftTo) };
}
