import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../sandbox/src/bankid/index.ts";
import type { RunningDiiaStandIn } from "../../../../sandbox/src/diia/index.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../sandbox/src/google/index.ts";
import { endpointsOf } from "../fuzz/endpoints.ts";
import { createTestApp, postJson, TEST_ORIGIN, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { startTestDiia } from "../support/diia.ts";
import { googleSettings } from "../support/google.ts";
import { postsThatMustCheckTheOrigin, takesCookieCredentials } from "./csrf-endpoints.ts";

const evil = [
  "https://evil.example/",
  "//evil.example/",
  "/\\evil.example/",
  "\\\\evil.example",
  "https:evil.example",
  "javascript:alert(1)",
  "https://localhost:3000.evil.example/",
  "https://evil.example\r\nX-Injected: yes",
  "/uk/\r\nSet-Cookie: injected=1",
];
const redirectParameters = [
  "redirect",
  "redirect_uri",
  "redirectUrl",
  "returnTo",
  "return_to",
  "next",
  "callback",
  "callbackUrl",
  "url",
  "post_logout_redirect_uri",
  "continue",
];
describe.each(aboveModelDatabases)("web attacks on %s", (kind) => {
  let t: TestApp;
  let google: RunningGoogleStandIn;
  let diia: RunningDiiaStandIn;
  let bankId: RunningBankIdStandIn;
  let cookie = "";
  let appId = "";
  let allowedOrigins: Set<string>;

  beforeAll(async () => {
    google = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    diia = await startTestDiia();
    // BankID configured through its stand-in, so its routes run their real checks on the hostile values.
    bankId = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    t = await createTestApp(kind, { ...googleSettings(google), ...diia.env, ...bankId.env });
    const person = await addPerson(t.app, { username: "visitor", fullName: "Відвідувач" }, "visitor passphrase");
    const { application } = await addApplication(t.app);
    appId = application.id;
    await grantAccess(t.app.db, person.id, application.id);
    cookie = await signIn(t.app, "visitor", "visitor passphrase");
    allowedOrigins = new Set([
      TEST_ORIGIN,
      new URL(google.issuer).origin,
      new URL(bankId.env.BANKID_BASE_URL ?? TEST_ORIGIN).origin,
      "https://app.example.edu",
    ]);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
    await diia.close();
    await bankId.close();
  });

  function assertSafeRedirect(response: LightMyRequestResponse, what: string): void {
    for (const [name, value] of Object.entries(response.headers)) {
      expect(String(value), `${what}: header ${name}`).not.toMatch(/[\r\n]/);
    }
    expect(response.headers["x-injected"], what).toBeUndefined();
    expect(String(response.headers["set-cookie"] ?? ""), what).not.toContain("injected=");
    expect(response.statusCode, `${what}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
    const location = response.headers.location;
    if (location === undefined) return;
    const target = String(location);
    if (target.startsWith("/")) {
      expect(target, what).not.toMatch(/^\/[/\\]/);
      return;
    }
    expect(allowedOrigins.has(new URL(target).origin), `${what} → ${target}`).toBe(true);
  }

  const signOutByGet = new Set(["/api/auth/logout", "/cas/logout"]);

  it("sends no redirecting endpoint anywhere but its own pages, the identity provider or a registered callback", async () => {
    const gets = endpointsOf(t.app).filter((endpoint) => endpoint.method === "GET");
    let tried = 0;
    let redirects = 0;
    for (const endpoint of gets) {
      for (const value of evil) {
        const path = endpoint.pathParams.reduce(
          (current, name) => current.replace(`{${name}}`, encodeURIComponent(value)),
          endpoint.path,
        );
        const query = new URLSearchParams();
        for (const name of [...Object.keys(endpoint.query), ...redirectParameters]) query.set(name, value);
        if (endpoint.query.appId) query.set("appId", appId);
        // GET /api/auth/logout and CAS's GET /cas/logout (the protocol's own sign-out) with the session would end it
        // for the rest.
        const sessions = signOutByGet.has(endpoint.path) ? [undefined] : [undefined, cookie];
        for (const session of sessions) {
          const response = await t.app.inject({
            url: `${path}?${query}`,
            headers: session ? { cookie: session } : {},
          });
          tried += 1;
          if (response.headers.location) redirects += 1;
          assertSafeRedirect(response, `GET ${path}?${query}`);
        }
      }
    }
    // The language and app id themselves come from the request on app redirects.
    for (const value of evil) {
      for (const url of [
        `/api/app-redirect?appId=${encodeURIComponent(value)}`,
        `/api/app-redirect?appId=${appId}&lang=${encodeURIComponent(value)}`,
        `/api/app-redirect?appId=${appId}&state=${encodeURIComponent(value)}`,
        `/api/app-redirect?appId=${appId}&redirectUri=${encodeURIComponent(value)}`,
        `/api/google/redirect?appId=${encodeURIComponent(value)}`,
      ]) {
        const response = await t.app.inject({
          url,
          headers: { cookie, "accept-language": value.replace(/[\r\n]/g, "") },
        });
        tried += 1;
        if (response.headers.location) redirects += 1;
        assertSafeRedirect(response, `GET ${url}`);
      }
    }
    console.log(
      `attacks: open redirect and header injection, ${tried} requests over ${gets.length} GET endpoints, ${redirects} redirects, all safe`,
    );
    expect(redirects).toBeGreaterThan(0);
  });

  it("refuses state-changing requests from another origin (CSRF)", async () => {
    const posts = endpointsOf(t.app).filter(takesCookieCredentials);
    expect(posts.map((endpoint) => endpoint.path)).toEqual(expect.arrayContaining(postsThatMustCheckTheOrigin));
    // Bodies that would succeed from the right origin, so only the origin check can stop them.
    const grant = (await postJson(t.app, "/api/auth", { username: "visitor", password: "visitor passphrase" })).json();
    const validBodies: Record<string, unknown> = {
      "/api/auth": { username: "visitor", password: "visitor passphrase" },
      "/api/auth/internal": grant,
      "/api/auth/logout": {},
      // The account page's changes (the session is fresh, so these would pass the recent sign-in check).
      "/api/account/sessions/end-others": {},
      "/api/account/google/link": {},
      "/api/account/google/unlink": {},
      "/api/account/totp": {},
      "/api/auth/passkey/options": {},
      "/api/account/passkeys/options": {},
    };
    let refused = 0;
    for (const endpoint of posts) {
      const url = endpoint.path.replace(/\{\w+\}/g, "x");
      const body = validBodies[endpoint.path] ?? {};
      const text = JSON.stringify(body);
      const crossOrigin: LightMyRequestResponse[] = [
        await postJson(t.app, url, body, { headers: { origin: "https://evil.example", cookie } }),
        await postJson(t.app, url, body, { headers: { origin: "null", cookie } }),
        // A browser that kept Origin back still says where the request came from (a server-side
        // client sends neither, and /api/auth/internal serves those: existing integrations' Diia flow).
        await t.app.inject({
          method: "POST",
          url,
          payload: text,
          headers: { "content-type": "application/json", "sec-fetch-site": "cross-site", cookie },
        }),
      ];
      const simpleRequests: LightMyRequestResponse[] = [
        // A form or text/plain post needs no preflight: it must not pass even with the right Origin.
        await t.app.inject({
          method: "POST",
          url,
          payload: "username=visitor&password=visitor+passphrase",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN, cookie },
        }),
        await t.app.inject({
          method: "POST",
          url,
          payload: text,
          headers: { "content-type": "text/plain", origin: TEST_ORIGIN, cookie },
        }),
      ];
      for (const response of crossOrigin) {
        const expected = endpoint.path in validBodies ? [403] : [400, 403];
        expect(expected, `${url}: ${response.statusCode} ${response.body}`).toContain(response.statusCode);
        refused += 1;
      }
      for (const response of simpleRequests) {
        // A body that is not JSON may fail validation (400) before the origin check; either way nothing happens.
        expect([400, 403, 415], `${url}: ${response.statusCode} ${response.body}`).toContain(response.statusCode);
        refused += 1;
      }
    }
    // The grant was not spent by the cross-origin attempts.
    expect((await postJson(t.app, "/api/auth/internal", grant)).statusCode).toBe(200);
    // The session is still there: logout from another origin did nothing.
    expect((await t.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(200);
    console.log(`attacks: CSRF, ${refused} cross-origin or form posts over ${posts.length} endpoints, all refused`);
  });

  it("refuses oversized and deeply nested bodies with a 4xx code, not a 500", async () => {
    const big = await postJson(t.app, "/api/auth", { username: "visitor", password: "x".repeat(70 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe("request.payload_too_large");
    const hugeMultipart = await t.app.inject({
      method: "POST",
      url: "/api/diia/callback",
      payload: `--b\r\nContent-Disposition: form-data; name="encodeData"\r\n\r\n${"A".repeat(300 * 1024)}\r\n--b--\r\n`,
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    expect(hugeMultipart.statusCode).toBe(413);
    for (const depth of [1_000, 10_000, 20_000]) {
      const arrays = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      for (const payload of [arrays, objects, `{"username":${objects},"password":"x"}`]) {
        const response = await t.app.inject({
          method: "POST",
          url: "/api/auth",
          payload,
          headers: { "content-type": "application/json", origin: TEST_ORIGIN },
        });
        expect(response.statusCode, `${depth} deep: ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
      }
    }
    const longUrl = await t.app.inject({ url: `/api/app-redirect?appId=${"a".repeat(100_000)}` });
    expect(longUrl.statusCode).toBeLessThan(500);
    console.log("attacks: bodies of 70 KiB JSON and 300 KiB multipart → 413; JSON nested 1,000–20,000 deep → 4xx");
  });
  it("refuses a U+0000 anywhere in a JSON body or a query with 400 request.unstorable_text, never a 500", async () => {
    const nul = "x\u0000y";
    const bodies: [string, unknown][] = [
      ["/api/auth", { username: nul, password: "p" }],
      ["/api/auth", { username: "visitor", password: nul }],
      ["/api/auth/internal", { sessionId: nul }],
    ];
    for (const [url, body] of bodies) {
      const response = await postJson(t.app, url, body, { headers: { cookie } });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.json().code).toBe("request.unstorable_text");
    }
    const queries = [
      `/api/app-redirect?appId=${encodeURIComponent(nul)}`,
      `/api/google/redirect?appId=${encodeURIComponent(nul)}`,
      `/api/ticket?ticketId=${encodeURIComponent(nul)}&appId=${appId}&appSecret=s`,
      `/oidc/auth?client_id=${encodeURIComponent(nul)}&response_type=code&scope=openid`,
      `/oidc/me?access_token=${encodeURIComponent(nul)}`,
    ];
    for (const url of queries) {
      const response = await t.app.inject({ url, headers: { cookie } });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});
