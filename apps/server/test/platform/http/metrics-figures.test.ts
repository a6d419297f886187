import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { readServiceFigures } from "../../../src/platform/metrics/figures.ts";

// The console's figures are read from the registry /metrics serves; here a registry filled by hand.
describe("the service screen's figures", () => {
  it("sums series across labels and finds the 95th percentile's latency bucket over every route", async () => {
    const registry = new Registry();
    const latency = new Histogram({
      name: "kpi_id_http_request_duration_seconds",
      help: "latency",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.01, 0.1, 1],
      registers: [registry],
    });
    for (let i = 0; i < 18; i++) latency.observe({ method: "GET", route: "/a", status_code: "200" }, 0.005);
    latency.observe({ method: "POST", route: "/b", status_code: "500" }, 0.05);
    latency.observe({ method: "POST", route: "/b", status_code: "503" }, 0.5);
    const signIns = new Counter({
      name: "kpi_id_sign_ins_total",
      help: "sign-ins",
      labelNames: ["method", "result"],
      registers: [registry],
    });
    signIns.inc({ method: "PASSWORD", result: "success" }, 3);
    signIns.inc({ method: "PASSWORD", result: "failure" }, 2);
    signIns.inc({ method: "DIIA", result: "success" });

    const figures = await readServiceFigures(registry);
    expect(figures.requests.total).toBe(20);
    expect(figures.requests.serverErrors).toBe(2);
    expect(figures.requests.averageSeconds).toBeCloseTo((18 * 0.005 + 0.05 + 0.5) / 20);
    // 18 of 20 (90%) are under 10 ms, 19 (95%) under 100 ms.
    expect(figures.requests.p95Seconds).toBe(0.1);
    expect(figures.signIns).toEqual({ success: 4, failure: 2 });
    expect(figures.signInsByMethod).toEqual([
      { method: "DIIA", success: 1, failure: 0 },
      { method: "PASSWORD", success: 3, failure: 2 },
    ]);
    // What this registry lacks reads as nothing, not as an error.
    expect(figures.memoryBytes).toBeNull();
    expect(figures.throttledAttempts).toBe(0);
  });

  it("has no latency before the first request", async () => {
    const figures = await readServiceFigures(new Registry());
    expect(figures.requests).toEqual({ total: 0, serverErrors: 0, averageSeconds: null, p95Seconds: null });
  });
});
