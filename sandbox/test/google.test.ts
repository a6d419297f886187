import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../src/google/accounts.ts";
import { CookieJar, signInAtStandIn } from "../src/google/http-driver.ts";
import { type RunningGoogleStandIn, startGoogleSandbox, startGoogleStandIn } from "../src/google/index.ts";

const productUrl = "http://localhost:3999";

function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function decodePayload(jwt: string): Record<string, unknown> {
  const [, payload = ""] = jwt.split(".");
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}

describe("Google stand-in", () => {
  let standIn: RunningGoogleStandIn;
  let discovery: Record<string, unknown>;

  beforeAll(async () => {
    standIn = await startGoogleStandIn({ productUrl, port: 0 });
    discovery = (await (await fetch(`${standIn.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
  });
  afterAll(() => standIn.close());

  async function idTokenClaims(code: string, verifier: string): Promise<Record<string, unknown>> {
    const token = await fetch(String(discovery.token_endpoint), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: `${productUrl}/google-auth`,
        code_verifier: verifier,
        client_id: standIn.client.clientId,
        client_secret: standIn.client.clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    return decodePayload(((await token.json()) as { id_token: string }).id_token);
  }

  function authorizationUrl(challenge: string, extra: Record<string, string> = {}): URL {
    const url = new URL(String(discovery.authorization_endpoint));
    url.search = new URLSearchParams({
      client_id: standIn.client.clientId,
      redirect_uri: `${productUrl}/google-auth`,
      response_type: "code",
      scope: "openid email profile",
      state: "state-1",
      nonce: "nonce-1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      ...extra,
    }).toString();
    return url;
  }

  it("publishes discovery for its issuer, without the iss response parameter Google does not send", () => {
    expect(discovery.issuer).toBe(standIn.issuer);
    expect(standIn.issuer).toMatch(/^http:\/\/localhost:\d+$/);
    expect(discovery).not.toHaveProperty("authorization_response_iss_parameter_supported");
    expect(discovery.code_challenge_methods_supported).toEqual(["S256"]);
  });

  it("lists the demo accounts on an accessible account page", async () => {
    const { challenge } = pkcePair();
    const first = await fetch(authorizationUrl(challenge), { redirect: "manual" });
    const location = new URL(first.headers.get("location") ?? "", standIn.issuer);
    expect(location.pathname).toMatch(/^\/interaction\//);
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const page = await fetch(location, { headers: { cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Choose an account");
    for (const account of googleAccounts) expect(html).toContain(account.email);
  });

  it("signs in a chosen account and issues an ID token with Google's claims", async () => {
    const { verifier, challenge } = pkcePair();
    const account = googleAccounts[0];
    if (!account) throw new Error("no demo accounts");
    const { redirectedTo } = await signInAtStandIn(authorizationUrl(challenge), account.sub);
    expect(`${redirectedTo.origin}${redirectedTo.pathname}`).toBe(`${productUrl}/google-auth`);
    expect(redirectedTo.searchParams.get("state")).toBe("state-1");
    const code = redirectedTo.searchParams.get("code") ?? "";

    const claims = await idTokenClaims(code, verifier);
    expect(claims).toMatchObject({
      iss: standIn.issuer,
      aud: standIn.client.clientId,
      sub: account.sub,
      nonce: "nonce-1",
      email: account.email,
      email_verified: true,
      hd: account.hd,
      name: account.name,
      given_name: account.given_name,
      family_name: account.family_name,
    });
    expect(account.hd).toMatch(/kpi\.ua$/);
    expect(standIn.env.GOOGLE_HOSTED_DOMAINS?.split(",")).toContain(account.hd);
  });

  it("issues no hd for a personal account outside the university's Workspace", async () => {
    const { verifier, challenge } = pkcePair();
    const personal = googleAccounts.find((each) => each.email.endsWith("@gmail.com"));
    if (!personal) throw new Error("no personal demo account");
    const { redirectedTo } = await signInAtStandIn(authorizationUrl(challenge), personal.sub);
    const claims = await idTokenClaims(redirectedTo.searchParams.get("code") ?? "", verifier);
    expect(claims.email).toBe(personal.email);
    expect(claims).not.toHaveProperty("hd");
  });

  it("shows the account page again to a browser it already knows, so another account can be picked", async () => {
    const jar = new CookieJar();
    const [first, second] = googleAccounts;
    if (!first || !second) throw new Error("no demo accounts");
    const once = await signInAtStandIn(authorizationUrl(pkcePair().challenge), first.sub, jar);
    const pkce = pkcePair();
    const twice = await signInAtStandIn(authorizationUrl(pkce.challenge), second.sub, jar);
    expect(once.choseAccount).toBe(true);
    expect(twice.choseAccount).toBe(true);
    const claims = await idTokenClaims(twice.redirectedTo.searchParams.get("code") ?? "", pkce.verifier);
    expect(claims.sub).toBe(second.sub);
  });

  it("sends the person back with access_denied when they cancel", async () => {
    const { challenge } = pkcePair();
    const first = await fetch(authorizationUrl(challenge), { redirect: "manual" });
    const location = new URL(first.headers.get("location") ?? "", standIn.issuer);
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const cancelled = await fetch(new URL(`${location.pathname}/abort`, standIn.issuer), {
      method: "POST",
      headers: { cookie },
      redirect: "manual",
    });
    const resumed = await fetch(new URL(cancelled.headers.get("location") ?? "", standIn.issuer), {
      headers: { cookie: [cookie, ...cancelled.headers.getSetCookie().map((line) => line.split(";")[0])].join("; ") },
      redirect: "manual",
    });
    const back = new URL(resumed.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("state-1");
  });

  it("refuses a redirect URI that is not the product's", async () => {
    const { challenge } = pkcePair();
    const response = await fetch(authorizationUrl(challenge, { redirect_uri: "https://evil.example/google-auth" }), {
      redirect: "manual",
    });
    expect(response.status).toBe(400);
  });
});

describe("Google sandbox starter", () => {
  it("stays out of the way when a real Google is configured", async () => {
    const started = await startGoogleSandbox({
      productUrl,
      dataDir: "/tmp/unused",
      googlePort: 0,
      env: { GOOGLE_CLIENT_ID: "real.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "real-secret" },
    });
    expect(started).toBeUndefined();
  });

  it("hands the product the issuer and the client credentials", async () => {
    const started = await startGoogleSandbox({ productUrl, dataDir: "/tmp/unused", googlePort: 0, env: {} });
    try {
      expect(started?.env).toMatchObject({ GOOGLE_ISSUER: started?.url });
      expect(started?.env.GOOGLE_CLIENT_ID).toBeTruthy();
      expect(started?.env.GOOGLE_CLIENT_SECRET?.length).toBeGreaterThanOrEqual(32);
    } finally {
      await started?.close();
    }
  });
});
