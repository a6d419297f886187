import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { escapeHtml, page } from "./html.ts";
import { readCredentials } from "./tickets.ts";

export interface OidcSignInOptions {
  /** The KPI ID service; its issuer is {productUrl}/oidc. */
  productUrl: string;
  /** This site's own address: the registered redirect URIs are {siteUrl}/oidc/callback and /oidc/signed-out. */
  siteUrl: string;
  dataDir: string;
  /** Sends a page under the site's CSP. */
  send(reply: FastifyReply, status: number, html: string, nonce: string): FastifyReply;
}

interface Flow {
  verifier: string;
  nonce: string;
  startedAt: number;
}

// A demo keeps its little state in memory; a real site would use its session store.
const flowLifetimeMs = 10 * 60 * 1000;

/**
 * "Sign in with KPI ID" the OpenID Connect way, with openid-client: discovery,
 * authorization code with PKCE (S256) and nonce, userinfo, RP-initiated logout.
 * The same application id and secret as the ticket flow (DATA_DIR/demo-apps.json).
 */
export function registerOidcSignIn(app: FastifyInstance, options: OidcSignInOptions): void {
  const flows = new Map<string, Flow>();
  const idTokens = new Map<string, string>();
  let configuration: Promise<client.Configuration> | undefined;
  const redirectUri = `${options.siteUrl}/oidc/callback`;

  async function discover(): Promise<client.Configuration> {
    const credentials = await readCredentials(options.dataDir, "demo-site");
    if (!credentials) throw new Error("The demo application is not registered yet: start KPI ID with demo data.");
    const issuer = new URL("/oidc", options.productUrl);
    // The demo runs on http://localhost; a real site talks to KPI ID over https only.
    const insecure = issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined;
    const config = await client.discovery(
      issuer,
      credentials.id,
      credentials.secret,
      client.ClientSecretBasic(credentials.secret),
      insecure,
    );
    client.enableNonRepudiationChecks(config);
    return config;
  }

  function config(): Promise<client.Configuration> {
    configuration ??= discover().catch((error: unknown) => {
      configuration = undefined;
      throw error;
    });
    return configuration;
  }

  const nonceOf = () => randomBytes(16).toString("base64");
  const fail = (reply: FastifyReply, status: number, message: string) => {
    const nonce = nonceOf();
    return options.send(
      reply,
      status,
      page(
        "OpenID Connect",
        `<h1>OpenID Connect</h1><p class="error">${escapeHtml(message)}</p><p><a href="/">Back</a></p>`,
        nonce,
      ),
      nonce,
    );
  };

  app.get("/oidc/login", async (_request, reply) => {
    let current: client.Configuration;
    try {
      current = await config();
    } catch (error) {
      return fail(reply, 502, error instanceof Error ? error.message : "KPI ID could not be reached.");
    }
    const now = Date.now();
    for (const [state, flow] of flows) if (now - flow.startedAt > flowLifetimeMs) flows.delete(state);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    flows.set(state, { verifier, nonce, startedAt: now });
    const url = client.buildAuthorizationUrl(current, {
      redirect_uri: redirectUri,
      scope: "openid profile email kpi",
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ui_locales: "uk",
    });
    return reply.redirect(url.href, 303);
  });

  app.get("/oidc/callback", async (request: FastifyRequest, reply) => {
    const current = new URL(request.url, options.siteUrl);
    const state = current.searchParams.get("state") ?? "";
    const flow = flows.get(state);
    flows.delete(state);
    if (!flow) return fail(reply, 400, "Unknown or expired sign-in; start again.");
    const error = current.searchParams.get("error");
    if (error) return fail(reply, 200, error === "access_denied" ? "You declined to share your data." : error);
    try {
      const config = await configuration;
      if (!config) throw new Error("not discovered");
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: state,
        expectedNonce: flow.nonce,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("no ID token");
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      const key = randomBytes(16).toString("base64url");
      idTokens.set(key, tokens.id_token ?? "");
      const rows: [string, unknown][] = [
        ["sub", claims.sub],
        ["name", info.name],
        ["email", info.email],
        ["kpi_student_id", info.kpi_student_id],
        ["kpi_employee_id", info.kpi_employee_id],
        ["amr", (claims.amr as string[] | undefined)?.join(" ")],
      ];
      const nonce = nonceOf();
      return options.send(
        reply,
        200,
        page(
          "Демо-сайт інтегратора",
          `<h1>Демо-сайт інтегратора</h1>
<p id="signed-in">Signed in with OpenID Connect as <strong data-testid="signed-in-name">${escapeHtml(String(info.name ?? ""))}</strong></p>
<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(String(v ?? "--"))}</dd>`).join("")}</dl>
<p><a href="/oidc/logout?session=${key}">Sign out</a> · <a href="/">Back to the demo site</a></p>`,
          nonce,
        ),
        nonce,
      );
    } catch (cause) {
      return fail(reply, 502, `KPI ID refused the sign-in: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  });

  app.get("/oidc/logout", async (request: FastifyRequest<{ Querystring: { session?: string } }>, reply) => {
    const key = typeof request.query.session === "string" ? request.query.session : "";
    const idToken = idTokens.get(key);
    idTokens.delete(key);
    const current = await configuration;
    if (!idToken || !current) return reply.redirect("/", 303);
    const url = client.buildEndSessionUrl(current, {
      id_token_hint: idToken,
      post_logout_redirect_uri: `${options.siteUrl}/oidc/signed-out`,
    });
    return reply.redirect(url.href, 303);
  });

  app.get("/oidc/signed-out", async (_request, reply) => {
    const nonce = nonceOf();
    return options.send(
      reply,
      200,
      page(
        "Демо-сайт інтегратора",
        `<h1>Signed out</h1><p data-testid="signed-out">You have left KPI ID.</p><p><a href="/">Back</a></p>`,
        nonce,
      ),
      nonce,
    );
  });
}
