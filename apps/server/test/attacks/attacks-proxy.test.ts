import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttlePolicy } from "../../src/platform/throttle/policy.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addPerson, manualClock } from "../support/campus.ts";
import { failPasswordChecksFast } from "../support/password-checks.ts";

const proxy = "10.0.0.1";
const password = "proxied passphrase";

describe("forged client addresses behind a trusted proxy", () => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp("pglite", { TRUST_PROXY: proxy }, { clock: clock.now });
    await addPerson(t.app, { username: "proxied", fullName: "Через Проксі" }, password);
  });
  afterAll(() => t.close());

  const viaProxy = (forwardedFor: string, username: string, pw = "guess") =>
    postJson(
      t.app,
      "/api/auth",
      { username, password: pw },
      { remoteAddress: proxy, headers: { "x-forwarded-for": forwardedFor } },
    );

  const auditedAddresses = async () =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("ip")
        .where("event_type", "=", "sign_in")
        .orderBy("audit_events.id")
        .execute()
    ).map((row) => row.ip);

  it("a client rotating its own X-Forwarded-For is still counted, and audited, by its real address", async () => {
    const rule = throttlePolicy.ip;
    const restoreChecks = failPasswordChecksFast(t.app);
    const statuses: number[] = [];
    for (let i = 0; i <= rule.freeFailures + 5; i++) {
      // The client writes any address it likes on the left; the proxy appends the one it saw.
      const forged = `127.0.0.${(i % 250) + 1}, 192.0.2.${(i % 250) + 1}`;
      statuses.push((await viaProxy(`${forged}, 203.0.113.50`, `sprayed-${i}`)).statusCode);
    }
    restoreChecks();
    console.log(
      `attacks: ${statuses.length} guesses with a rotating X-Forwarded-For → ${statuses.filter((s) => s === 429).length}×429`,
    );
    expect(statuses.slice(0, rule.freeFailures + 1).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(rule.freeFailures + 1).every((status) => status === 429)).toBe(true);
    expect(new Set(await auditedAddresses())).toEqual(new Set(["203.0.113.50"]));
    clock.advance(rule.forgetAfterSeconds);
  });

  it("an IPv6 client rotating inside its /64 behind the proxy is one client", async () => {
    const restoreChecks = failPasswordChecksFast(t.app);
    for (let i = 0; i <= throttlePolicy.ip.freeFailures; i++) {
      await viaProxy(`2001:db8:aa:bb:${(i + 1).toString(16)}::1`, `v6-sprayed-${i}`);
    }
    restoreChecks();
    expect((await viaProxy("2001:db8:aa:bb:dead:beef::7", "proxied", password)).statusCode).toBe(429);
    expect((await viaProxy("2001:db8:aa:bc::7", "proxied", password)).statusCode).toBe(200);
    clock.advance(throttlePolicy.ip.forgetAfterSeconds);
  });

  it("believes X-Forwarded-For only from the proxy: a direct client's header is ignored", async () => {
    const direct = await postJson(
      t.app,
      "/api/auth",
      { username: "proxied", password: "guess" },
      { remoteAddress: "198.51.100.77", headers: { "x-forwarded-for": "203.0.113.99" } },
    );
    expect(direct.statusCode).toBe(401);
    const addresses = await auditedAddresses();
    expect(addresses).toContain("198.51.100.77");
    expect(addresses).not.toContain("203.0.113.99");
  });

  it("never opens /metrics to X-Forwarded-For: 127.0.0.1, nor to a request the proxy carried", async () => {
    const forged = await t.app.inject({
      url: "/metrics",
      remoteAddress: "203.0.113.9",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.body).not.toContain("kpi_id_");
    const throughLocalProxy = await t.app.inject({
      url: "/metrics",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(throughLocalProxy.statusCode).toBe(401);
    expect((await t.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" })).statusCode).toBe(200);
  });
});

describe("TRUST_PROXY as a hop count", () => {
  it("with a hop count takes the address the one proxy saw, not what the client wrote", async () => {
    const t = await createTestApp("pglite", { TRUST_PROXY: "1" });
    try {
      await postJson(
        t.app,
        "/api/auth",
        { username: "nobody", password: "guess" },
        { remoteAddress: "10.9.9.9", headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.61" } },
      );
      const rows = await t.app.db.selectFrom("audit_events").select("ip").orderBy("audit_events.id").execute();
      expect(rows.map((row) => row.ip)).toEqual(["203.0.113.61"]);
    } finally {
      await t.close();
    }
  });
});

describe("/metrics in production behind a proxy on the same host that adds no header", () => {
  const token = "metrics-bearer-token-for-the-attack-suite-7f3a9c";
  const logLines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      "pglite",
      { NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua", METRICS_TOKEN: token, LOG_LEVEL: "info" },
      { logStream: { write: (line) => logLines.push(line) } },
    );
  });
  afterAll(() => t.close());

  it("refuses a loopback request without the token, and a near miss of it, and answers the token", async () => {
    // What a same-host proxy forwarding without X-Forwarded-For looks like: a plain loopback request.
    const loopback = await t.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" });
    expect(loopback.statusCode).toBe(401);
    expect(loopback.body).not.toContain("kpi_id_");
    for (const guess of [token.slice(0, -1), `${token}x`, `${token.slice(0, -1)}0`, token.toUpperCase(), ""]) {
      const refused = await t.app.inject({
        url: "/metrics",
        remoteAddress: "127.0.0.1",
        headers: { authorization: `Bearer ${guess}` },
      });
      expect(refused.statusCode).toBe(401);
    }
    const basic = await t.app.inject({ url: "/metrics", headers: { authorization: `Basic ${token}` } });
    expect(basic.statusCode).toBe(401);
    const scrape = await t.app.inject({
      url: "/metrics",
      remoteAddress: "198.51.100.20",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toContain("kpi_id_http_request_duration_seconds");
  });

  it("never writes the token to the log", async () => {
    await t.app.inject({ url: `/metrics?token=${token}`, headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${token}x` } });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(token);
  });
});
