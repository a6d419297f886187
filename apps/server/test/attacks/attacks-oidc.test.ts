import { oidcInteractionPath } from "@kpi-id/contracts";
import { errors } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdapterClass } from "../../src/protocols/oidc/adapter.ts";
import type { TestApp } from "../support/app.ts";
import { addPerson, grantAccess, signIn } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { createListeningTestApp } from "../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const postLogoutUri = "https://rp.example.edu/signed-out";
const password = "correct horse battery";
const nul = "x\u0000y";

type Values = Record<string, string>;

/** The OAuth error code of a provider answer, asked for as a browser asks (its error page, pages.ts). */
async function errorOnPage(response: Response): Promise<string> {
  return /<code>([a-z_]+)<\/code>/.exec(await response.text())?.[1] ?? "";
}

const asBrowser = { accept: "text/html" };

/** Each value of a request in turn replaced by one PostgreSQL cannot store. */
function eachPoisoned(values: Values): [string, Values][] {
  return Object.keys(values).map((name) => [name, { ...values, [name]: nul }]);
}

/**
 * Issue 13, defect 11: text PostgreSQL cannot store (U+0000), in any parameter of the provider's
 * endpoints, with a real client, real codes and real tokens so each value gets as far as it can:
 * a 4xx with an OAuth error code (or, at the authorization endpoint, the error sent to the
 * application), logged, and never the provider's server_error.
 */
describe.each(aboveModelDatabases)("attacks on the OpenID Connect provider (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };
  let config: client.Configuration;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind));
    const person = await addPerson(test.app, { username: "a.tester", fullName: "Олена Коваленко" }, password);
    const created = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [postLogoutUri],
      scopes: ["openid", "profile", "offline_access"],
      firstParty: true,
    });
    rp = { id: created.application.id, secret: created.secret };
    await grantAccess(test.app.db, person.id, rp.id);
    config = await discover(issuer, rp.id, rp.secret);
    browser = await signedInBrowser();
  });
  afterAll(() => test?.close());

  async function signedInBrowser() {
    const signedIn = new TestBrowser(origin);
    signedIn.setCookie(await signIn(test.app, "a.tester", password, { origin }));
    return signedIn;
  }

  async function codeFor(signedIn = browser) {
    const start = await startSignIn(config, redirectUri, "openid profile offline_access", { prompt: "consent" });
    const { leftTo } = await signedIn.follow(start.url.href);
    const code = leftTo?.searchParams.get("code");
    if (!code) throw new Error("no code");
    return { code, verifier: start.verifier, leftTo, state: start.state };
  }

  async function tokens(signedIn = browser) {
    const { verifier, leftTo, state } = await codeFor(signedIn);
    if (!leftTo) throw new Error("no code");
    return client.authorizationCodeGrant(config, leftTo, { pkceCodeVerifier: verifier, expectedState: state });
  }

  /** A form POST to the provider as an application's server sends it, asking for JSON. */
  async function post(path: string, values: Values, authenticated = true) {
    const basic = `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;
    const response = await fetch(`${issuer}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        ...(authenticated ? { authorization: basic } : {}),
      },
      body: new URLSearchParams(values).toString(),
    });
    const text = await response.text();
    return { status: response.status, error: text ? (JSON.parse(text) as { error?: string }).error : undefined };
  }

  it("answers U+0000 in a code, refresh token, token or any other value at the token, introspection, revocation and userinfo endpoints with a 4xx and an error code, and logs it", async () => {
    const info = vi.spyOn(test.app.log, "info");
    const failures = vi.spyOn(test.app.log, "error");
    const issued = await tokens();
    // Revoking a token revokes its grant, that browser's: this one is another browser's.
    const toRevoke = await tokens(await signedInBrowser());
    const { code, verifier } = await codeFor();
    const requests: [string, Values, boolean][] = [
      ...eachPoisoned({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).map(([, values]) => ["/token", values, true] as [string, Values, boolean]),
      ...eachPoisoned({ grant_type: "refresh_token", refresh_token: issued.refresh_token ?? "", scope: "openid" }).map(
        ([, values]) => ["/token", values, true] as [string, Values, boolean],
      ),
      // client_secret_post: the client id itself is looked up.
      ["/token", { grant_type: "refresh_token", refresh_token: "r", client_id: nul, client_secret: rp.secret }, false],
      ...eachPoisoned({ token: issued.access_token, token_type_hint: "access_token" }).map(
        ([, values]) => ["/token/introspection", values, true] as [string, Values, boolean],
      ),
      ...eachPoisoned({ token: toRevoke.access_token, token_type_hint: "access_token" }).map(
        ([, values]) => ["/token/revocation", values, true] as [string, Values, boolean],
      ),
      ["/me", { access_token: nul }, false],
    ];
    const answers: string[] = [];
    for (const [path, values, authenticated] of requests) {
      const { status, error } = await post(path, values, authenticated);
      const poisoned = Object.keys(values).find((name) => values[name] === nul);
      answers.push(`${path} ${poisoned}: ${status} ${error ?? ""}`.trim());
    }
    // Where the value is looked up in (or would be written to) the database: invalid_request.
    expect(answers).toEqual([
      "/token grant_type: 400 unsupported_grant_type",
      "/token code: 400 invalid_request",
      "/token redirect_uri: 400 invalid_grant",
      "/token code_verifier: 400 invalid_request",
      "/token grant_type: 400 unsupported_grant_type",
      "/token refresh_token: 400 invalid_request",
      "/token scope: 400 invalid_scope",
      "/token client_id: 400 invalid_request",
      "/token/introspection token: 400 invalid_request",
      // A hint is only a hint (RFC 7662 §2.1, RFC 7009 §2.1): the token is found without it.
      "/token/introspection token_type_hint: 200",
      "/token/revocation token: 400 invalid_request",
      "/token/revocation token_type_hint: 200",
      "/me access_token: 400 invalid_request",
    ]);
    const logged = info.mock.calls
      .filter(([, message]) => message === "oidc: request refused")
      .map(([fields]) => fields);
    expect(logged).toHaveLength(answers.filter((answer) => / 4\d\d /.test(answer)).length);
    expect(logged).toContainEqual({
      oidcRoute: "token",
      error: "invalid_request",
      description: expect.stringContaining("U+0000"),
      clientId: rp.id,
    });
    expect(JSON.stringify(logged)).not.toContain("\\u0000");
    expect(failures).not.toHaveBeenCalled();
    // Nothing was harmed: the tokens still work.
    expect((await client.tokenIntrospection(config, issued.access_token)).active).toBe(true);
    expect((await client.refreshTokenGrant(config, issued.refresh_token ?? "")).access_token).toBeTruthy();
    info.mockRestore();
    failures.mockRestore();
  });

  it("answers U+0000 in any authorization, interaction or end-session parameter with an error, logged, never server_error", async () => {
    const info = vi.spyOn(test.app.log, "info");
    const failures = vi.spyOn(test.app.log, "error");
    const start = await startSignIn(config, redirectUri, "openid profile", { nonce: "n", login_hint: "a.tester" });
    const authorization = Object.fromEntries(start.url.searchParams);
    const outcomes: string[] = [];
    for (const [name, values] of eachPoisoned(authorization)) {
      const { leftTo, response } = await browser.follow(`${issuer}/auth?${new URLSearchParams(values)}`);
      const answer = leftTo?.searchParams.get("error") ?? (leftTo ? "code" : String(response.status));
      outcomes.push(`${name} ${answer}`);
    }
    // Values kept with the interaction or the code are refused; the others only travel back.
    expect(outcomes).toEqual([
      "redirect_uri 400",
      "scope invalid_scope",
      "state code",
      "code_challenge invalid_request",
      "code_challenge_method invalid_request",
      "nonce invalid_request",
      "login_hint code",
      "client_id 400",
      "response_type unsupported_response_type",
    ]);

    const { id_token: idToken = "" } = await tokens();
    const logout = { id_token_hint: idToken, post_logout_redirect_uri: postLogoutUri, state: "s", ui_locales: "en" };
    const ended: string[] = [];
    for (const [name, values] of eachPoisoned(logout)) {
      const response = await browser.request(`${issuer}/session/end?${new URLSearchParams(values)}`, {
        headers: asBrowser,
      });
      ended.push(`${name} ${response.status} ${await errorOnPage(response)}`.trim());
    }
    for (const [name, values] of eachPoisoned({ xsrf: "x", logout: "yes" })) {
      const response = await browser.request(`${issuer}/session/end/confirm`, {
        method: "POST",
        headers: { ...asBrowser, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(values),
      });
      ended.push(`confirm ${name} ${response.status} ${await errorOnPage(response)}`);
    }
    expect(ended).toEqual([
      "id_token_hint 400 invalid_request",
      "post_logout_redirect_uri 400 invalid_request",
      // state is kept with the provider session until the person answers the question.
      "state 400 invalid_request",
      // Only picks the question's language.
      "ui_locales 200",
      "confirm xsrf 400 invalid_request",
      "confirm logout 400 invalid_request",
    ]);
    // The interaction's uid (in its path) is refused at the edge, as every text of our own API.
    const interaction = await browser.request(`${origin}${oidcInteractionPath}/${encodeURIComponent(nul)}`);
    expect(interaction.status).toBe(400);
    expect((await interaction.json()).code).toBe("request.unstorable_text");

    const routes = info.mock.calls
      .filter(([, message]) => message === "oidc: request refused")
      .map(([fields]) => fields);
    expect(new Set(routes.map((fields) => (fields as { oidcRoute: string }).oidcRoute))).toEqual(
      new Set(["authorization", "end_session", "end_session_confirm"]),
    );
    expect(failures).not.toHaveBeenCalled();
    info.mockRestore();
    failures.mockRestore();
  });

  it("the provider's storage refuses what PostgreSQL cannot hold (U+0000, a lone surrogate) as invalid_request, not a database error", async () => {
    const Adapter = createAdapterClass(test.app.db);
    const sessions = new Adapter("Session");
    for (const bad of ["a\u0000b", "a\ud800b"]) {
      await expect(sessions.upsert("s1", { state: { state: bad } }, 60)).rejects.toBeInstanceOf(errors.InvalidRequest);
      await expect(sessions.upsert(bad, { accountId: "x" }, 60)).rejects.toBeInstanceOf(errors.InvalidRequest);
      await expect(sessions.find(bad)).rejects.toBeInstanceOf(errors.InvalidRequest);
      await expect(sessions.findByUid(bad)).rejects.toBeInstanceOf(errors.InvalidRequest);
      await expect(new Adapter("AccessToken").revokeByGrantId(bad)).rejects.toBeInstanceOf(errors.InvalidRequest);
    }
    // A surrogate pair (an emoji) is ordinary text.
    await sessions.upsert("s2", { state: { state: "😀" } }, 60);
    expect(await sessions.find("s2")).toMatchObject({ state: { state: "😀" } });
  });
});
