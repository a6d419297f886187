import { createServer } from "node:http";
import type { FastifyInstance } from "fastify";
import * as client from "openid-client";
import { grantAccess } from "../../src/model/access/applications.ts";
import { createApplication } from "../../src/model/apps/service.ts";
import { applyOidcSettings, type OidcSettings } from "../../src/protocols/oidc/settings.ts";
import { addPerson, signIn } from "./campus.ts";
import { freePort } from "./listening.ts";

let clientCount = 0;

export async function addOidcClient(app: FastifyInstance, settings: OidcSettings) {
  clientCount += 1;
  const created = await createApplication(app.db, {
    name: `oidc-${clientCount}-${Date.now().toString(36)}`,
    title: `Клієнт OIDC ${clientCount}`,
    description: "Сайт, що входить через OpenID Connect",
    titleEn: `OIDC client ${clientCount}`,
    descriptionEn: "A site that signs in with OpenID Connect",
    callbackUrl: "https://rp.example.edu/ticket",
  });
  const application = await applyOidcSettings(app.db, created.application, { enabled: true, ...settings });
  return { application, secret: created.secret };
}

/**
 * A browser for tests: keeps cookies (by name; paths are ignored, which only
 * sends more than a browser would) and follows redirects on our origin until
 * the location leaves it.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  /** The last Set-Cookie line for each cookie, attributes and all (lifetime checks). */
  readonly setCookieLines = new Map<string, string>();
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  setCookie(pair: string): void {
    const [name, ...value] = pair.split("=");
    if (name) this.cookies.set(name, value.join("="));
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, this.origin), {
      ...init,
      redirect: "manual",
      headers: { cookie: this.cookieHeader(), ...(init.headers as Record<string, string> | undefined) },
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair = ""] = set.split(";");
      const [name, ...value] = pair.split("=");
      if (!name) continue;
      this.setCookieLines.set(name.trim(), set);
      const text = value.join("=");
      if (text === "" || /expires=Thu, 01 Jan 1970/i.test(set)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), text);
    }
    return response;
  }

  /**
   * Signs in with a password the way the sign-in screen does, carrying this browser's cookies
   * (its pending "continue to" among them); answers the server's `next`.
   */
  async signIn(username: string, password: string): Promise<string> {
    const post = (path: string, body: unknown) =>
      this.request(path, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", origin: this.origin },
      });
    const auth = await post("/api/auth", { username, password });
    if (auth.status !== 200) throw new Error(`sign-in failed: ${auth.status}`);
    const internal = await post("/api/auth/internal", { sessionId: (await auth.json()).sessionId });
    return (await internal.json()).next;
  }

  /** Follows redirects while they stay on our origin; returns the first location elsewhere, or the last response. */
  async follow(url: string): Promise<{ leftTo?: URL; response: Response }> {
    let next = new URL(url, this.origin);
    for (let hop = 0; hop < 15; hop += 1) {
      const response = await this.request(next.href);
      const location = response.headers.get("location");
      if (!location || response.status < 300 || response.status >= 400) return { response };
      next = new URL(location, next);
      if (next.origin !== this.origin) return { leftTo: next, response };
    }
    throw new Error("too many redirects");
  }
}

export interface RelyingParty {
  config: client.Configuration;
  redirectUri: string;
}

export async function discover(issuer: string, clientId: string, secret?: string): Promise<client.Configuration> {
  return client.discovery(
    new URL(issuer),
    clientId,
    secret ? { client_secret: secret } : undefined,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    { execute: [client.allowInsecureRequests] },
  );
}

export async function startSignIn(config: client.Configuration, redirectUri: string, scope: string, extra = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  });
  return { url, verifier, state };
}

export { client };

/** An application's back-channel logout endpoint on loopback: keeps every logout token it is sent. */
export async function startBackchannelReceiver() {
  const logoutTokens: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      logoutTokens.push(new URLSearchParams(body).get("logout_token") ?? "");
      response.end();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/backchannel`, logoutTokens, close: () => server.close() };
}

/** Answers the provider's sign-out question (or its self-submitting form) with "yes": the confirm response. */
export async function confirmLogout(browser: TestBrowser, issuer: string, asked: Response): Promise<Response> {
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(await asked.text())?.[1] ?? "";
  return browser.request(`${issuer}/session/end/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf, logout: "yes" }),
  });
}

export interface ListeningApp {
  app: FastifyInstance;
  origin: string;
  issuer: string;
}

/**
 * A person (signed in with `signIn`) with access to a fresh first-party application, signed in to it
 * through OpenID Connect in a browser (consent asked for, offline_access), holding tokens with a refresh token.
 */
export async function signInToApplication(
  { app, origin, issuer }: ListeningApp,
  person: { id: string; cookie: string },
  redirectUri: string,
) {
  const rp = await addOidcClient(app, {
    redirectUris: [redirectUri],
    scopes: ["openid", "profile", "offline_access"],
    firstParty: true,
  });
  await grantAccess(app.db, person.id, rp.application.id);
  const config = await discover(issuer, rp.application.id, rp.secret);
  const browser = new TestBrowser(origin);
  browser.setCookie(person.cookie);
  const start = await startSignIn(config, redirectUri, "openid profile offline_access", { prompt: "consent" });
  const { leftTo } = await browser.follow(start.url.href);
  if (!leftTo) throw new Error("the sign-in did not return to the application");
  const tokens = await client.authorizationCodeGrant(config, leftTo, {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
  });
  if (!tokens.refresh_token) throw new Error("no refresh token");
  return { userId: person.id, application: rp.application, config, browser, tokens };
}

/** A new person, signed in to KPI ID and, through OpenID Connect, to a fresh first-party application (see above). */
export async function newPersonSignedInToApplication(
  listening: ListeningApp,
  person: { username: string; fullName: string; password: string },
  redirectUri: string,
) {
  const { id } = await addPerson(
    listening.app,
    { username: person.username, fullName: person.fullName },
    person.password,
  );
  const cookie = await signIn(listening.app, person.username, person.password, { origin: listening.origin });
  return signInToApplication(listening, { id, cookie }, redirectUri);
}
