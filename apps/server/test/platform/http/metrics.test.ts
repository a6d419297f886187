import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp, testConfig } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { freePort } from "../../support/listening.ts";

const metricsToken = "scrape-token-for-tests-0123456789";

describe.each(aboveModelDatabases)("GET /metrics on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await addPerson(t.app, { username: "metered", fullName: "Лічена Особа" }, "metered passphrase");
  });
  afterAll(() => t.close());

  it("counts sign-ins by method and result, latency by route pattern, pool use and pending Diia requests", async () => {
    await postJson(t.app, "/api/auth", { username: "metered", password: "metered passphrase" });
    await postJson(t.app, "/api/auth", { username: "metered", password: "wrong passphrase" });
    await t.app.inject({ url: "/api/app-redirect?appId=00000000-0000-4000-8000-000000000001" });
    const response = await t.app.inject({ url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    const text = response.body;
    expect(text).toMatch(/kpi_id_sign_ins_total\{method="PASSWORD",result="success"\} 1/);
    expect(text).toMatch(/kpi_id_sign_ins_total\{method="PASSWORD",result="failure"\} 1/);
    expect(text).toMatch(
      /kpi_id_http_request_duration_seconds_count\{method="POST",route="\/api\/auth",status_code="200"\} 1/,
    );
    // The pattern, not the URL: the query string and its id never become a label.
    expect(text).toContain('route="/api/app-redirect"');
    expect(text).not.toContain("00000000-0000-4000-8000-000000000001");
    expect(text).toMatch(/kpi_id_db_pool_connections\{state="total"\} \d+/);
    expect(text).toMatch(/kpi_id_diia_pending_requests 0/);
    expect(text).toMatch(/kpi_id_database_up 1/);
    expect(text).toMatch(/kpi_id_session_cache_hearing 1/);
    expect(text).toMatch(/kpi_id_session_cache_entries \d+/);
    expect(text).toMatch(/kpi_id_memory_cache_entries\{cache="applications"\} \d+/);
    expect(text).toMatch(/kpi_id_memory_cache_entries\{cache="oidc_accounts"\} \d+/);
    expect(text).toMatch(/kpi_id_memory_cache_entries\{cache="oidc_access_tokens"\} \d+/);
    expect(text).toContain("kpi_id_throttled_attempts_total");
    expect(text).toContain("kpi_id_ticket_exchanges_total");
  });

  it("says how long each certificate has left, by what it is for", async () => {
    // The first SAML key is made on first use of the metadata.
    expect((await t.app.inject({ url: "/saml/metadata" })).statusCode).toBe(200);
    const text = (await t.app.inject({ url: "/metrics" })).body;
    const left = text.match(/kpi_id_certificate_expiry_seconds\{certificate="SAML signing key [^"]+"\} (\d+)/);
    // The SAML key's certificate is made for ten years.
    expect(Number(left?.[1])).toBeGreaterThan(9 * 365 * 86_400);
  });

  it("refuses a client that is not on the loopback address when no token is configured", async () => {
    const outside = await t.app.inject({ url: "/metrics", remoteAddress: "203.0.113.9" });
    expect(outside.statusCode).toBe(401);
    expect(outside.body).not.toContain("kpi_id_");
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", { METRICS_TOKEN: metricsToken, TRUST_PROXY: "127.0.0.1" });
  });
  afterAll(() => t.close());

  it("needs the bearer token, even from loopback, and accepts it from anywhere", async () => {
    expect((await t.app.inject({ url: "/metrics" })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${metricsToken}x` } });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      url: "/metrics",
      remoteAddress: "203.0.113.9",
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain("kpi_id_http_request_duration_seconds");
  });
});

describe("GET /metrics in production", () => {
  const production = { NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua" };
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("is off without METRICS_TOKEN or METRICS_PORT, even for a loopback client", async () => {
    t = await createTestApp("pglite", production);
    const local = await t.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" });
    expect(local.statusCode).toBe(404);
    expect(local.body).not.toContain("kpi_id_");
  });

  it("with METRICS_PORT serves /metrics on that port alone, and the service's port answers 404", async () => {
    const metricsPort = await freePort();
    t = await createTestApp("pglite", { ...production, METRICS_PORT: String(metricsPort) });
    const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
    expect((await fetch(`${address}/metrics`)).status).toBe(404);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain("kpi_id_http_request_duration_seconds");
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/user`)).status).toBe(404);
    await t.close();
    t = undefined;
    // Closed with the service.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it("with METRICS_PORT and METRICS_TOKEN wants the token on that port too", async () => {
    const metricsPort = await freePort();
    t = await createTestApp("pglite", {
      ...production,
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: metricsToken,
    });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(scrape.status).toBe(200);
  });

  it("refuses to start with a weak token", () => {
    expect(() => testConfig({ ...production, METRICS_TOKEN: "short" })).toThrow(
      /METRICS_TOKEN: must be at least 32 characters/,
    );
    expect(() => testConfig({ ...production, METRICS_TOKEN: "replace-with-openssl-rand-base64-48-output" })).toThrow(
      /METRICS_TOKEN: is still the example value/,
    );
    expect(() => testConfig({ METRICS_TOKEN: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" })).not.toThrow();
    expect(() => testConfig({ ...production, METRICS_TOKEN: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" })).toThrow(
      /METRICS_TOKEN: is too repetitive/,
    );
  });
});
