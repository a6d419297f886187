import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSigninScriptPath } from "../../../src/surfaces/web/signin-script.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabase } from "../../support/databases.ts";

const kind = aboveModelDatabase;

describe("GET /kpi-id-signin.js", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    if (!existsSync(defaultSigninScriptPath)) {
      execFileSync("npm", ["run", "build", "--workspace", "packages/signin-button"], { stdio: "ignore" });
    }
    testApp = await createTestApp(kind, {}, { protocols: [] });
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

  it("serves it compressed, and under a content-hashed name, cached a year, whose integrity the API tells", async () => {
    const plain = await testApp.app.inject({ url: "/kpi-id-signin.js" });
    const brotli = await testApp.app.inject({ url: "/kpi-id-signin.js", headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toContain("accept-encoding");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await testApp.app.inject({ url: "/kpi-id-signin.js", headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    const described = await testApp.app.inject({ url: "/api/signin-script" });
    expect(described.statusCode).toBe(200);
    const { path, integrity } = described.json() as { path: string; integrity: string };
    expect(path).toMatch(/^\/kpi-id-signin\.[A-Za-z0-9]{12}\.js$/);
    expect(integrity).toBe(`sha384-${createHash("sha384").update(plain.rawPayload).digest("base64")}`);
    const hashed = await testApp.app.inject({ url: path, headers: { "accept-encoding": "br" } });
    expect(hashed.statusCode).toBe(200);
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers["access-control-allow-origin"]).toBe("*");
    expect(brotliDecompressSync(hashed.rawPayload).toString()).toBe(plain.body);
    // Another hash is not this script.
    const stale = await testApp.app.inject({ url: "/kpi-id-signin.AAAAAAAAAAAA.js" });
    expect(stale.statusCode).toBe(404);
  });
});
