import { forwardAuthPaths } from "@kpi-id/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import { addApplication } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addProtectedSite, addVisitor, signInWithoutNginx } from "../support/nginx-visit.ts";

const seed = Number(process.env.FUZZ_SEED ?? 20_261_127);
const siteOrigin = "https://wiki.kpi.ua";

/**
 * The nginx endpoints with what nginx (or an attacker past it) may put in the headers the documented block sets:
 * any application id, any original address, any cookie, any ticket and way back. None answers 5xx, and none
 * ever sends the browser off the protected host (the start only to KPI ID's own app redirect).
 */
describe.each(aboveModelDatabases)("fuzzing the nginx auth_request endpoints (%s)", (kind) => {
  let t: TestApp;
  let site: { id: string };
  let ordinary: { id: string };
  let liveCookie: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    site = await addProtectedSite(t.app, siteOrigin);
    ordinary = (await addApplication(t.app)).application;
    const visitor = await addVisitor(t.app, [site.id]);
    liveCookie = await signInWithoutNginx(t.app, site.id, siteOrigin, visitor.kpiIdCookie);
    expect(liveCookie).toMatch(/^__Host-kpi_id_site=/);
  });
  afterAll(() => t.close());

  // Header values an HTTP client can send: printable ASCII, as nginx would pass them on.
  const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const address = fc.oneof(
    headerText,
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    headerText.map((path) => `${siteOrigin}/${path}`),
    fc.constantFrom("//evil.example/", "javascript:alert(1)", `${siteOrigin}.evil.example/`, "/relative"),
  );
  const request = fc.record({
    path: fc.constantFrom(...Object.values(forwardAuthPaths)),
    application: fc.option(fc.oneof(fc.constant("site"), fc.constant("ordinary"), headerText), { nil: undefined }),
    original: fc.option(address, { nil: undefined }),
    cookie: fc.option(
      fc.oneof(
        fc.constant("live"),
        headerText.map((v) => `__Host-kpi_id_site=${v}`),
        headerText,
      ),
      {
        nil: undefined,
      },
    ),
    query: fc.dictionary(fc.constantFrom("ticketId", "state", "rd", "appId"), fc.oneof(address, fc.string())),
  });

  it("answers every generated request without a 5xx, and redirects only to the protected host or KPI ID", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ path, application, original, cookie, query }) => {
        const headers: Record<string, string> = {};
        if (application !== undefined) {
          headers["x-kpi-id-application"] =
            application === "site" ? site.id : application === "ordinary" ? ordinary.id : application;
        }
        if (original !== undefined) headers["x-original-url"] = original;
        if (cookie !== undefined) headers.cookie = cookie === "live" ? liveCookie : cookie;
        const response = await t.app.inject({ url: `${path}?${new URLSearchParams(query)}`, headers });
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode === 302) {
          const location = String(response.headers.location);
          const allowed = path === forwardAuthPaths.start ? `${TEST_PUBLIC_URL}/api/app-redirect?` : `${siteOrigin}/`;
          expect(location.startsWith(allowed)).toBe(true);
          if (path === forwardAuthPaths.start) {
            const state = new URL(location).searchParams.get("state") ?? "";
            expect(state.slice(state.indexOf("~") + 1).startsWith(`${siteOrigin}/`)).toBe(true);
          }
        }
      }),
      { numRuns: 600, seed },
    );
  }, 300_000);
});
