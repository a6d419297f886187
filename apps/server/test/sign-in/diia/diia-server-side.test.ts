import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { diiaBindingCookie, person, postSignedCallback, startTestDiia } from "../../support/diia.ts";

/**
 * Issue 19: existing KPI ID integrations run the Diia sign-in from their own server: app-link,
 * check-request with the binding cookie, POST /api/auth/internal, GET /api/user with the session
 * cookie, and GET /api/auth/logout. No Origin, no Sec-Fetch-* headers: what a server's HTTP client sends.
 */
describe.each(aboveModelDatabases)("the server-side Diia flow of existing integrations (%s)", (kind) => {
  let diia: RunningDiiaStandIn;
  let t: TestApp;

  beforeAll(async () => {
    diia = await startTestDiia();
    t = await createTestApp(kind, diia.env, { protocols: [] });
    await insertUser(t.app.db, { username: "student", full_name: "Олена Коваленко", tax_id: "3012345670" });
  });
  afterAll(async () => {
    await t?.close();
    await diia?.close();
  });

  /** The integration's server: keeps every cookie KPI ID sets, like a cookie jar. */
  function serverClient() {
    const jar = new Map<string, string>();
    const header = () => [...jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
    const keep = (response: Awaited<ReturnType<TestApp["app"]["inject"]>>) => {
      for (const cookie of response.cookies) {
        if (cookie.value) jar.set(cookie.name, cookie.value);
        else jar.delete(cookie.name);
      }
      return response;
    };
    return {
      get: async (url: string, headers: Record<string, string> = {}) =>
        keep(await t.app.inject({ method: "GET", url, headers: { cookie: header(), ...headers } })),
      postJson: async (url: string, payload: unknown, headers: Record<string, string> = {}) =>
        keep(
          await t.app.inject({
            method: "POST",
            url,
            payload: JSON.stringify(payload),
            headers: { cookie: header(), "content-type": "application/json", ...headers },
          }),
        ),
      jar,
    };
  }

  async function signedInServer() {
    const server = serverClient();
    const link = await server.get("/api/diia/app-link");
    expect(link.statusCode).toBe(200);
    const { requestId } = link.json();
    expect(diiaBindingCookie(link)).not.toBe("");
    expect((await server.get(`/api/diia/check-request?requestId=${requestId}`)).json()).toEqual({
      status: "Processing",
    });
    expect((await postSignedCallback(t.app, requestId, person(diia, "student"))).statusCode).toBe(200);
    const finished = (await server.get(`/api/diia/check-request?requestId=${requestId}`)).json();
    expect(finished).toEqual({ status: "Finished", sessionId: expect.any(String) });
    return { server, link: link.json(), grant: finished.sessionId as string };
  }

  it("answers app-link with exactly deepLink, pageLink, requestId and createdAt, and signs in end to end", async () => {
    const { server, link, grant } = await signedInServer();
    expect(Object.keys(link).sort()).toEqual(["createdAt", "deepLink", "pageLink", "requestId"]);
    expect(link.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(link.deepLink.startsWith(`${diia.url}/acquirers/offer-request/dynamic/`)).toBe(true);
    expect(new URL(link.pageLink).protocol).toMatch(/^https?:$/);
    expect(Number.isNaN(Date.parse(link.createdAt))).toBe(false);

    const internal = await server.postJson("/api/auth/internal", { sessionId: grant });
    expect(internal.statusCode).toBe(200);
    expect(internal.json()).toEqual({ ok: true, next: "/uk/apps" });
    const user = await server.get("/api/user");
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ fullName: "Олена Коваленко", data: { AUTH_METHOD: "DIIA" } });

    const logout = await server.get("/api/auth/logout");
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ ok: true });
    expect((await server.get("/api/user")).statusCode).toBe(401);
  });

  it("still refuses a browser's cross-site POST to /api/auth/internal", async () => {
    const { server, grant } = await signedInServer();
    const crossSite = await server.postJson(
      "/api/auth/internal",
      { sessionId: grant },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().code).toBe("request.csrf_rejected");
    // The refused call did not use the grant: the KPI ID page (same origin) still can.
    const ownPage = await server.postJson("/api/auth/internal", { sessionId: grant }, { origin: TEST_ORIGIN });
    expect(ownPage.statusCode).toBe(200);
  });

  it("uses a grant its server exchanges, and writes the session, durably; a browser's exchange does not wait for the disk", async () => {
    // A PostgreSQL crash can forget a browser's sign-in, which then fails closed; a server learns who signed in
    // from the answer, so its sign-in is on disk first (docs/operations.md, "What a database crash can forget").
    const exchangeStatements = async (headers: Record<string, string>) => {
      const { server, grant } = await signedInServer();
      const statements: string[] = [];
      const stop = t.app.database.onStatement((text) => statements.push(text));
      try {
        expect((await server.postJson("/api/auth/internal", { sessionId: grant }, headers)).statusCode).toBe(200);
      } finally {
        stop();
      }
      const writes = statements.filter((text) => /login_grants|insert into "sessions"/.test(text));
      return writes.map((text) => text.includes("set_config('synchronous_commit', 'off', true)"));
    };
    expect(await exchangeStatements({})).toEqual([false, false]);
    expect(await exchangeStatements({ origin: TEST_ORIGIN })).toEqual([true, true]);
  });

  it("signs nobody out on a GET from another site in a browser, and does from KPI ID's own page", async () => {
    const { server, grant } = await signedInServer();
    await server.postJson("/api/auth/internal", { sessionId: grant });
    for (const site of ["cross-site", "same-site"]) {
      const refused = await server.get("/api/auth/logout", { "sec-fetch-site": site, "sec-fetch-mode": "navigate" });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe("request.csrf_rejected");
      expect((await server.get("/api/user")).statusCode).toBe(200);
    }
    const own = await server.get("/api/auth/logout", { "sec-fetch-site": "same-origin" });
    expect(own.statusCode).toBe(200);
    expect((await server.get("/api/user")).statusCode).toBe(401);
  });
});
