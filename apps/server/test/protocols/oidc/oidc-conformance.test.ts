import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";
const password = "correct horse battery";

/** A GET with headers fetch would not send as given (Host). */
function rawGet(origin: string, path: string, headers: Record<string, string>): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, headers }, (incoming) => {
      let body = "";
      incoming.setEncoding("utf8");
      incoming.on("data", (chunk: string) => {
        body += chunk;
      });
      incoming.on("end", () => resolve(body));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

function form(values: Record<string, string>) {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(values).toString(),
  };
}

/** Issue 13, defects 5, 6, 9, 10 and 11: what a strict relying party and the conformance suite check. */
describe.each(aboveModelDatabases)("OpenID Connect as the specs require (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };
  let other: { id: string; secret: string };

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const person = await addPerson(test.app, { username: "c.tester", fullName: "Олена Коваленко" }, password);
    const settings = {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid" as const, "profile" as const],
      firstParty: true,
    };
    const first = await addOidcClient(test.app, settings);
    const second = await addOidcClient(test.app, settings);
    rp = { id: first.application.id, secret: first.secret };
    other = { id: second.application.id, secret: second.secret };
    await grantAccess(test.app.db, person.id, rp.id);
    await grantAccess(test.app.db, person.id, other.id);
  });
  afterAll(() => test?.close());

  async function signedInBrowser() {
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "c.tester", password, { origin }));
    return browser;
  }

  async function tokensFor(app: { id: string; secret: string }) {
    const config = await discover(issuer, app.id, app.secret);
    const start = await startSignIn(config, redirectUri, "openid profile");
    const { leftTo } = await (await signedInBrowser()).follow(start.url.href);
    if (!leftTo) throw new Error("the sign-in did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { config, tokens };
  }

  it("takes the issuer and every endpoint from PUBLIC_URL, whatever Host or X-Forwarded-Host say", async () => {
    const body = await rawGet(origin, "/oidc/.well-known/openid-configuration", {
      host: "evil.example",
      "x-forwarded-host": "evil2.example",
      "x-forwarded-proto": "https",
    });
    expect(body).not.toContain("evil");
    const metadata = JSON.parse(body) as Record<string, unknown>;
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.authorization_endpoint).toBe(`${issuer}/auth`);
    expect(metadata.token_endpoint).toBe(`${issuer}/token`);
    expect(metadata.jwks_uri).toBe(`${issuer}/jwks`);
    expect(metadata.end_session_endpoint).toBe(`${issuer}/session/end`);
  });

  it("oidcc-backchannel-logout-discovery-endpoint-verification: discovery advertises back-channel logout with sid, and the end-session endpoint", async () => {
    const metadata = (await discover(issuer, rp.id, rp.secret)).serverMetadata();
    expect(metadata).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      end_session_endpoint: `${issuer}/session/end`,
    });
    // Not offered, so not advertised (their plans do not apply).
    expect(metadata).not.toHaveProperty("frontchannel_logout_supported");
    expect(metadata).not.toHaveProperty("check_session_iframe");
  });

  it("advertises exactly the client authentication methods an application can be registered with", async () => {
    const metadata = (await discover(issuer, rp.id, rp.secret)).serverMetadata();
    expect(metadata.token_endpoint_auth_methods_supported).toEqual([
      "client_secret_basic",
      "client_secret_post",
      "none",
    ]);
    expect(metadata).not.toHaveProperty("token_endpoint_auth_signing_alg_values_supported");
    // client_secret_post, the other one advertised for confidential clients, works too.
    const post = await client.discovery(new URL(issuer), rp.id, undefined, client.ClientSecretPost(rp.secret), {
      execute: [client.allowInsecureRequests],
    });
    const { tokens } = await tokensFor(rp);
    expect((await client.tokenIntrospection(post, tokens.access_token)).active).toBe(true);
  });

  it("accepts the authorization request as a form POST (OIDC Core §3.1.2.1)", async () => {
    const config = await discover(issuer, rp.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid profile");
    const browser = await signedInBrowser();
    const posted = await browser.request(`${issuer}/auth`, form(Object.fromEntries(start.url.searchParams)));
    expect(posted.status).toBe(303);
    // A KPI ID session and a first-party application: the code comes at once.
    const leftTo = new URL(posted.headers.get("location") ?? "", issuer);
    expect(leftTo.origin + leftTo.pathname).toBe(redirectUri);
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()?.aud).toBe(rp.id);
  });

  it("accepts RP-initiated logout as a form POST and returns to the registered address", async () => {
    const { config, tokens } = await tokensFor(rp);
    const browser = new TestBrowser(origin);
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? "",
      post_logout_redirect_uri: postLogoutUri,
      state: "bye",
    });
    const posted = await browser.request(`${issuer}/session/end`, form(Object.fromEntries(url.searchParams)));
    expect(posted.status).toBe(200);
    // Without a provider session the provider confirms by itself; the form posts on to /confirm.
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await posted.text())?.[1] ?? "";
    const confirmed = await browser.request(`${issuer}/session/end/confirm`, form({ xsrf, logout: "yes" }));
    expect(confirmed.headers.get("location")).toBe(`${postLogoutUri}?state=bye`);
  });

  it("answers active: false when an application introspects another application's token, and does not revoke it", async () => {
    const mine = await tokensFor(rp);
    const theirs = await discover(issuer, other.id, other.secret);
    expect(await client.tokenIntrospection(theirs, mine.tokens.access_token)).toEqual({ active: false });
    await client.tokenRevocation(theirs, mine.tokens.access_token);
    expect((await client.tokenIntrospection(mine.config, mine.tokens.access_token)).active).toBe(true);
  });

  it("refuses a NUL character in a code, refresh token or token with 400 invalid_request, and in an authorization request", async () => {
    const basic = `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;
    const bodies: [string, Record<string, string>][] = [
      [
        "/token",
        {
          grant_type: "authorization_code",
          code: "a\u0000b",
          redirect_uri: redirectUri,
          code_verifier: "v".repeat(43),
        },
      ],
      ["/token", { grant_type: "refresh_token", refresh_token: "a\u0000b" }],
      ["/token/introspection", { token: "a\u0000b" }],
      ["/token/revocation", { token: "a\u0000b" }],
    ];
    for (const [path, values] of bodies) {
      const response = await fetch(`${issuer}${path}`, {
        ...form(values),
        headers: { ...form(values).headers, authorization: basic },
      });
      expect({ path, status: response.status, body: await response.json() }).toMatchObject({
        path,
        status: 400,
        body: { error: "invalid_request" },
      });
    }
    const config = await discover(issuer, rp.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid", { nonce: "n\u0000" });
    const { leftTo } = await (await signedInBrowser()).follow(start.url.href);
    // The nonce would be stored with the code; the redirect URI is known, so the application hears of it.
    expect(leftTo?.searchParams.get("error")).toBe("invalid_request");
    expect(leftTo?.searchParams.get("code")).toBeNull();
  });
});
