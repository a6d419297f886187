import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { serverVersion } from "../../../src/platform/release/version.ts";
import { createTestApp, type TestApp, testConfig } from "../../support/app.ts";
import { aboveModelDatabases, createTestDatabase } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("health and readiness on %s", (kind) => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it("reports alive and ready while the database answers", async () => {
    testApp = await createTestApp(kind);
    const health = await testApp.app.inject({ url: "/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok", version: serverVersion });
    const ready = await testApp.app.inject({ url: "/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: "ready", database: kind });
  });

  it("answers unknown API paths with a translated 404 and security headers", async () => {
    testApp = await createTestApp(kind);
    const uk = await testApp.app.inject({ url: "/api/no-such-thing" });
    expect(uk.statusCode).toBe(404);
    expect(uk.json()).toEqual({ code: "request.not_found", message: "Сторінку або ресурс не знайдено." });
    expect(uk.headers["cache-control"]).toBe("no-store");
    expect(uk.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(uk.headers["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    const en = await testApp.app.inject({
      url: "/api/no-such-thing",
      headers: { "accept-language": "en-GB,en;q=0.9" },
    });
    expect(en.json().message).toBe("The page or resource was not found.");
  });
});

describe("internal details in production", () => {
  const production = { NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua" };
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it("hides Swagger UI and the database kind by default, and keeps the OpenAPI document public", async () => {
    testApp = await createTestApp("pglite", production);
    const ready = await testApp.app.inject({ url: "/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
    expect((await testApp.app.inject({ url: "/api/docs/" })).statusCode).toBe(404);
    expect((await testApp.app.inject({ url: "/api/docs/static/swagger-initializer.js" })).statusCode).toBe(404);
    const openApi = await testApp.app.inject({ url: "/api/openapi.json" });
    expect(openApi.statusCode).toBe(200);
    expect(openApi.json().paths["/api/auth"]).toBeDefined();
  });

  it("shows them when the operator turns API_DOCS_UI and READY_DETAILS on", async () => {
    testApp = await createTestApp("pglite", { ...production, API_DOCS_UI: "true", READY_DETAILS: "true" });
    expect((await testApp.app.inject({ url: "/ready" })).json()).toEqual({ status: "ready", database: "pglite" });
    expect((await testApp.app.inject({ url: "/api/docs/" })).statusCode).toBe(200);
  });
});

describe("health and readiness without a database", () => {
  it("stays alive but not ready, with a code, when the database goes away", async () => {
    // The app starts on a working database (OpenID Connect reads its keys at start), which then
    // disappears under it; database-outage.test.ts does the same with a real PostgreSQL server.
    const database = await createTestDatabase("pglite");
    const app = await buildApp({ config: testConfig(), database: database.handle, logger: false });
    await app.ready();
    await database.handle.close();
    try {
      const ready = await app.inject({ url: "/ready", headers: { "accept-language": "en" } });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: "service.database_unavailable" });
      expect(ready.headers["retry-after"]).toBe("5");
      expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
    } finally {
      // The database is already closed; closing the app closes it once more, which may complain.
      await app.close().catch(() => {});
    }
  });
});
