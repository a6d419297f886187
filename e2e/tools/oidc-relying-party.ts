import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import * as client from "openid-client";
import { DemoSitePage } from "../pages/demo-site-page.ts";

/** The demo client the product seeds (apps/server/src/surfaces/seed/demo-oidc-client.ts), with its secret from DATA_DIR. */
export function demoOidcCredentials(): { id: string; secret: string } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (e2e/playwright.config.ts sets it)");
  const apps = JSON.parse(readFileSync(join(dataDir, "demo-apps.json"), "utf8")) as Record<
    string,
    { id: string; secret: string }
  >;
  const demo = apps["demo-site"];
  if (!demo) throw new Error("demo-apps.json has no demo-site");
  return demo;
}

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The registered redirect URI; the browser's requests to it are routed to this server. */
  redirectUri: string;
  postLogoutRedirectUri: string;
}

interface Pending {
  verifier: string;
  nonce: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function send(response: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  response.end(`<!doctype html><html><body>${html}</body></html>`);
}

/**
 * A real relying party built with openid-client: discovery, authorization code
 * with PKCE (S256) and nonce, token, ID token signature checked against the
 * JWKS, userinfo, refresh with rotation, RP-initiated logout. It shows what it
 * learnt on its callback page for the test to read.
 */
export async function startRelyingParty(options: RelyingPartyOptions): Promise<{ url: string; server: Server }> {
  const config = await client.discovery(
    new URL(options.issuer),
    options.clientId,
    options.clientSecret,
    client.ClientSecretBasic(options.clientSecret),
    { execute: [client.allowInsecureRequests] },
  );
  // Verify ID token signatures against the JWKS, not only the claims.
  client.enableNonRepudiationChecks(config);
  const pending = new Map<string, Pending>();
  let lastIdToken = "";
  let lastRefreshToken = "";
  let lastAccessToken = "";
  let lastSub = "";

  /**
   * /oidc/rp-login starts a sign-in; its query may set prompt (default consent, for a refresh
   * token; empty for none), max_age, response_mode (query or form_post) and scope (default with
   * offline_access).
   */
  async function login(request: IncomingMessage, response: ServerResponse) {
    const asked = new URL(request.url ?? "/", "http://rp").searchParams;
    const extra = Object.fromEntries(
      ["max_age", "response_mode"].flatMap((name) => {
        const value = asked.get(name);
        return value ? [[name, value]] : [];
      }),
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    pending.set(state, { verifier, nonce });
    const prompt = asked.get("prompt") ?? "consent";
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: options.redirectUri,
      scope: asked.get("scope") ?? "openid profile email kpi offline_access",
      ...(prompt ? { prompt } : {}),
      ...extra,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ui_locales: "uk",
    });
    // A new navigation (not a redirect), so the test's routing sees the provider's answers.
    send(response, 200, `<meta http-equiv="refresh" content="0;url=${escapeHtml(url.href)}">`);
  }

  /** The authorization response: in the query, or posted as a form (response_mode=form_post). */
  async function authorizationResponse(
    request: IncomingMessage,
  ): Promise<{ current: URL | Request; params: URLSearchParams }> {
    const current = new URL(request.url ?? "/", options.redirectUri);
    if (request.method !== "POST") return { current, params: current.searchParams };
    let body = "";
    for await (const chunk of request) body += String(chunk);
    const posted = new Request(current, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    return { current: posted, params: new URLSearchParams(body) };
  }

  async function callback(request: IncomingMessage, response: ServerResponse) {
    const { current, params } = await authorizationResponse(request);
    const state = params.get("state") ?? "";
    const flow = pending.get(state);
    pending.delete(state);
    if (!flow) return send(response, 400, "<p data-testid='rp-error'>unknown state</p>");
    const error = params.get("error");
    if (error) return send(response, 200, `<p data-testid="rp-error">${escapeHtml(error)}</p>`);
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: state,
      expectedNonce: flow.nonce,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error("no ID token");
    lastIdToken = tokens.id_token ?? "";
    lastAccessToken = tokens.access_token;
    lastSub = claims.sub;
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    const { rotated, concurrent } = await refreshTwice(tokens.refresh_token);
    const fields: Record<string, string> = {
      sub: claims.sub,
      name: String(info.name ?? ""),
      "given-name": String(info.given_name ?? ""),
      "family-name": String(info.family_name ?? ""),
      email: String(info.email ?? ""),
      "student-id": String(info.kpi_student_id ?? ""),
      amr: ((claims.amr as string[] | undefined) ?? []).join(" "),
      "auth-time": String(claims.auth_time ?? ""),
      "response-mode": request.method === "POST" ? "form_post" : "query",
      "refresh-rotated": rotated,
      "refresh-concurrent": concurrent,
    };
    send(
      response,
      200,
      `<h1>RP</h1><dl>${Object.entries(fields)
        .map(([key, value]) => `<dt>${key}</dt><dd data-testid="rp-${key}">${escapeHtml(value)}</dd>`)
        .join("")}</dl><a href="/oidc/rp-logout">Sign out</a>`,
    );
  }

  /**
   * Refreshes, then at once presents the used refresh token again, as a second tab would:
   * inside the provider's grace period for concurrent use that is accepted (a replay later is
   * refused and revokes the grant; the server tests show that part).
   */
  async function refreshTwice(refreshToken: string | undefined) {
    if (!refreshToken) return { rotated: "no refresh token", concurrent: "" };
    const refreshed = await client.refreshTokenGrant(config, refreshToken);
    const rotated = Boolean(refreshed.refresh_token) && refreshed.refresh_token !== refreshToken;
    lastRefreshToken = refreshed.refresh_token ?? "";
    const concurrent = await client.refreshTokenGrant(config, refreshToken).then(
      () => "accepted",
      (replayError: { error?: string }) => replayError.error ?? "refused",
    );
    return { rotated: rotated ? "yes" : "no", concurrent };
  }

  /** /oidc/rp-refresh: the refresh token this RP holds, used now (it outlives a logout only with offline_access). */
  async function refreshNow(response: ServerResponse) {
    const outcome = await client.refreshTokenGrant(config, lastRefreshToken).then(
      (refreshed) => {
        lastRefreshToken = refreshed.refresh_token ?? "";
        return "ok";
      },
      (refusal: { error?: string }) => refusal.error ?? "refused",
    );
    send(response, 200, `<p data-testid="rp-refresh">${escapeHtml(outcome)}</p>`);
  }

  /** /oidc/rp-userinfo: the access token of the last sign-in, used now at userinfo. */
  async function userinfoNow(response: ServerResponse) {
    const outcome = await client.fetchUserInfo(config, lastAccessToken, lastSub).then(
      () => "ok",
      // A 401 carries its error in the WWW-Authenticate challenge.
      (refusal: { cause?: { parameters?: { error?: string } }[]; status?: number }) =>
        refusal.cause?.[0]?.parameters?.error ?? String(refusal.status ?? "refused"),
    );
    send(response, 200, `<p data-testid="rp-userinfo">${escapeHtml(outcome)}</p>`);
  }

  function logout(response: ServerResponse) {
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: lastIdToken,
      post_logout_redirect_uri: options.postLogoutRedirectUri,
    });
    send(response, 302, "", { location: url.href });
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://rp").pathname;
    const handle = async () => {
      if (path === "/oidc/rp-login") return login(request, response);
      if (path === "/oidc/rp-logout") return logout(response);
      if (path === "/oidc/rp-refresh") return refreshNow(response);
      if (path === "/oidc/rp-userinfo") return userinfoNow(response);
      if (path === new URL(options.redirectUri).pathname) return callback(request, response);
      if (path === new URL(options.postLogoutRedirectUri).pathname)
        return send(response, 200, "<p data-testid='rp-signed-out'>signed out</p>");
      return send(response, 404, "not found");
    };
    handle().catch((error: unknown) =>
      send(response, 500, `<pre data-testid="rp-error">${escapeHtml(String(error))}</pre>`),
    );
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// The demo site's origin is where the demo OpenID Connect client's redirect URIs point
// (apps/server/src/surfaces/seed/demo-oidc-client.ts).
const demoSiteUrl = DemoSitePage.origin();

/**
 * A relying party with the demo client's credentials on a random loopback port. The browser's
 * way to the demo site's /oidc/ addresses (redirects, and form posts of response_mode=form_post)
 * is re-aimed at it.
 */
export async function startDemoRelyingParty(page: Page, baseURL: string): Promise<{ url: string; server: Server }> {
  const { id, secret } = demoOidcCredentials();
  const rp = await startRelyingParty({
    issuer: `${baseURL}/oidc`,
    clientId: id,
    clientSecret: secret,
    redirectUri: `${demoSiteUrl}/oidc/callback`,
    postLogoutRedirectUri: `${demoSiteUrl}/oidc/signed-out`,
  });
  // Playwright sees only the first request of a redirect chain, so the provider's redirects
  // are followed here, up to the one that leaves for the application.
  await page.route(`${baseURL}/**`, async (route) => {
    if (!route.request().isNavigationRequest()) return route.fallback();
    let response = await route.fetch({ maxRedirects: 0 });
    for (let hop = 0; hop < 10; hop += 1) {
      const next = new URL(response.headers().location ?? "", response.url());
      const provider = next.origin === new URL(baseURL).origin && /^\/(api\/)?oidc\//.test(next.pathname);
      if (!response.headers().location || !provider) break;
      response = await page.context().request.get(next.href, { maxRedirects: 0 });
    }
    const headers = response.headers();
    const location = headers.location;
    if (location?.startsWith(`${demoSiteUrl}/oidc/`))
      headers.location = `${rp.url}${location.slice(demoSiteUrl.length)}`;
    await route.fulfill({ response, headers });
  });
  await page.route(`${demoSiteUrl}/oidc/**`, async (route) => {
    const url = `${rp.url}${route.request().url().slice(demoSiteUrl.length)}`;
    await route.fulfill({ response: await route.fetch({ url, maxRedirects: 0 }) });
  });
  return rp;
}
