import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSigninScriptPath } from "../src/web/signin-script.ts";
import { createTestApp, type TestApp } from "./support/app.ts";
import { databaseKinds } from "./support/databases.ts";

const kind = databaseKinds[0] ?? "pglite";

describe("GET /kpi-id-signin.js", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    if (!existsSync(defaultSigninScriptPath)) {
      execFileSync("npm", ["run", "build", "--workspace", "packages/signin-button"], { stdio: "ignore" });
    }
    testApp = await createTestApp(kind);
  });
  afterAll(async () => testApp?.close());

  it("serves the built script so that other origins may include it, cacheable and revalidated by ETag", async () => {
    const response = await testApp.app.inject({ url: "/kpi-id-signin.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(response.headers["cache-control"]).toContain("public");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    expect(response.body).toContain("KPIID");
    expect(response.body).toContain("Увійти з KPI ID");

    const again = await testApp.app.inject({
      url: "/kpi-id-signin.js",
      headers: { "if-none-match": String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });
});
