import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe.each(aboveModelDatabases)("OpenID Connect refusals (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let clientId: string;
  let clientSecret: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ test, origin } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const person = await addPerson(
      test.app,
      { username: "refused", fullName: "Петро Сидоренко" },
      "correct horse battery",
    );
    const rp = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile"],
      firstParty: true,
    });
    clientId = rp.application.id;
    clientSecret = rp.secret;
    await grantAccess(test.app.db, person.id, clientId);
    browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, "refused", "correct horse battery", { origin }));
  });
  afterAll(() => test?.close());

  function authorize(params: Record<string, string>) {
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: "openid",
      state: "s1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      ...params,
    });
    for (const [key, value] of Object.entries(params)) if (value === "") query.delete(key);
    return browser.follow(`/oidc/auth?${query}`);
  }

  it("answers an unregistered redirect URI with an error page and no redirect", async () => {
    const { leftTo, response } = await authorize({ redirect_uri: "https://evil.example.com/callback" });
    expect(leftTo).toBeUndefined();
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("redirect_uri");
  });

  it("does not redirect for a redirect URI that only starts like a registered one", async () => {
    const { leftTo, response } = await authorize({ redirect_uri: `${redirectUri}/../x` });
    expect(leftTo).toBeUndefined();
    expect(response.status).toBe(400);
  });

  it("refuses a request without a PKCE challenge", async () => {
    const { leftTo } = await authorize({ code_challenge: "", code_challenge_method: "" });
    expect(leftTo?.searchParams.get("error")).toBe("invalid_request");
    expect(leftTo?.searchParams.get("code")).toBeNull();
  });

  it("refuses plain PKCE", async () => {
    const { leftTo } = await authorize({ code_challenge_method: "plain", code_challenge: "a".repeat(43) });
    expect(leftTo?.searchParams.get("error")).toBe("invalid_request");
    expect(leftTo?.searchParams.get("code")).toBeNull();
  });

  it("refuses a scope the application may not ask for", async () => {
    const { leftTo } = await authorize({ scope: "openid tax_id" });
    expect(leftTo?.searchParams.get("error")).toBe("invalid_scope");
  });

  it("refuses an unknown client without a redirect", async () => {
    const { leftTo, response } = await authorize({ client_id: "00000000-0000-4000-8000-000000000000" });
    expect(leftTo).toBeUndefined();
    expect(response.status).toBe(400);
  });

  it("issues a code for a correct request (the refusals above are not the only outcome)", async () => {
    const { leftTo } = await authorize({});
    expect(leftTo?.searchParams.get("code")).toBeTruthy();
  });

  it("refuses a code exchanged with a wrong PKCE verifier", async () => {
    const { leftTo } = await authorize({});
    if (!leftTo) throw new Error("no code");
    const response = await fetch(`${origin}/oidc/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: leftTo.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
        code_verifier: "x".repeat(43),
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("answers a malformed token request with a 400 and an OAuth error, not a crash", async () => {
    const response = await fetch(`${origin}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("answers a huge token request, a forged bearer token and unauthenticated introspection with 4xx, never 500", async () => {
    const huge = await fetch(`${origin}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=authorization_code&code=${"a".repeat(2_000_000)}`,
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const forged = await fetch(`${origin}/oidc/me`, { headers: { authorization: "Bearer not-a-token" } });
    expect(forged.status).toBe(401);
    const introspection = await fetch(`${origin}/oidc/token/introspection`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=abc",
    });
    expect(introspection.status).toBeGreaterThanOrEqual(400);
    expect(introspection.status).toBeLessThan(500);
    const garbage = await browser.request(`/oidc/auth?client_id=${"%FF".repeat(10)}&response_type=code`);
    expect(garbage.status).toBe(400);
  });

  it("sends a browser with an unknown or expired interaction to the screen that says so, and answers its API with a translated 404", async () => {
    const response = await browser.request("/api/oidc/interaction/nope", { headers: { "accept-language": "en" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/consent?uid=nope");
    const details = await browser.request("/api/oidc/interaction/nope/details", {
      headers: { "accept-language": "en" },
    });
    expect(details.status).toBe(404);
    expect(await details.json()).toEqual({
      code: "oidc.interaction_not_found",
      message:
        "The application's sign-in request was not found or has expired. Start signing in from the application again.",
    });
  });
});
