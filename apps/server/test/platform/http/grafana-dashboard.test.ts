import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { startTestDiia } from "../../support/diia.ts";

// deploy/grafana/kpi-id.json, the dashboard the operator guide offers for GET /metrics: every query on it names
// metrics this service exports, so no panel stays empty because a metric was renamed or never existed.

interface Panel {
  title: string;
  targets?: { expr?: string }[];
}

const dashboard = JSON.parse(
  readFileSync(new URL("../../../../../deploy/grafana/kpi-id.json", import.meta.url), "utf8"),
) as {
  panels: Panel[];
  templating: { list: { query?: { query?: string } | string }[] };
};

/** The series a histogram or summary exports beside its own name. */
const seriesSuffixes = ["_bucket", "_count", "_sum"];

/** The kpi_id_* metric names an expression reads. */
const metricsIn = (expr: string) => [...expr.matchAll(/\bkpi_id_[a-z0-9_]+/g)].map((match) => match[0]);

describe("the Grafana dashboard", () => {
  let diia: RunningDiiaStandIn;
  let t: TestApp;
  let exported: Set<string>;

  beforeAll(async () => {
    // With Diia configured, as its CRL gauge is registered only then.
    diia = await startTestDiia();
    t = await createTestApp("pglite", { ...diia.env, LOG_LEVEL: "warn" });
    const scrape = (await t.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" })).body;
    exported = new Set([...scrape.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] as string));
  });
  afterAll(async () => {
    await t?.close();
    await diia?.close();
  });

  const exports = (name: string) =>
    exported.has(name) ||
    seriesSuffixes.some((suffix) => name.endsWith(suffix) && exported.has(name.slice(0, -suffix.length)));

  it("has panels, each with a query, each query naming only metrics the service exports", () => {
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels) {
      const exprs = (panel.targets ?? []).map((target) => target.expr ?? "");
      expect(exprs.length, panel.title).toBeGreaterThan(0);
      for (const expr of exprs) {
        const names = metricsIn(expr);
        expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        expect(
          names.filter((name) => !exports(name)),
          panel.title,
        ).toEqual([]);
      }
    }
    const variables = dashboard.templating.list.map((variable) =>
      typeof variable.query === "string" ? variable.query : (variable.query?.query ?? ""),
    );
    expect(variables.flatMap(metricsIn).filter((name) => !exports(name))).toEqual([]);
  });

  it("shows every metric the service's own code registers (the kpi_id_ ones outside prom-client's defaults)", () => {
    const shown = new Set(
      dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsIn(target.expr ?? ""))),
    );
    const own = [...exported].filter((name) => !/^kpi_id_(process|nodejs)_/.test(name));
    expect(
      own.filter((name) => ![...shown].some((series) => series === name || series.startsWith(`${name}_`))),
    ).toEqual([]);
  });
});
