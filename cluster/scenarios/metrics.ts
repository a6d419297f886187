import { call } from "../lib/client.ts";
import { expect, newReport, type ScenarioReport } from "../lib/report.ts";
import type { ClusterContext } from "./context.ts";

function counterSum(text: string, pattern: RegExp): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = pattern.exec(line);
    if (match) sum += Number(match[1]);
  }
  return sum;
}

/**
 * Each instance serves /metrics to a scraper bringing METRICS_TOKEN; a loopback request without it is refused
 * (production: a proxy on the same host looks loopback too); through nginx, from outside, it is refused.
 */
export async function metricsOnEveryInstance(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport("metrics: every instance answers a scrape with the token, refuses one without");
  let signIns = 0;
  for (const instance of context.instances) {
    const tokenless = await call(`${instance.url}/metrics`, { origin: context.origin });
    report.sent += 1;
    expect(
      report,
      tokenless.status === 401,
      `/metrics on ${instance.name} without the token answered ${tokenless.status}`,
    );
    const scrape = await call(`${instance.url}/metrics`, { origin: context.origin, bearer: context.metricsToken });
    report.sent += 1;
    expect(report, scrape.status === 200, `/metrics on ${instance.name} answered ${scrape.status}`);
    for (const name of [
      "kpi_id_http_request_duration_seconds_bucket",
      "kpi_id_db_pool_connections",
      "kpi_id_database_up 1",
    ]) {
      expect(report, scrape.body.includes(name), `/metrics on ${instance.name} lacks ${name}`);
    }
    signIns += counterSum(scrape.body, /^kpi_id_sign_ins_total\{method="PASSWORD",result="success"\} (\d+)/);
  }
  const outside = await call(`${context.nginx.url}/metrics`, { origin: context.origin, clientIp: "203.0.113.50" });
  report.sent += 1;
  expect(report, outside.status === 401, `/metrics through nginx from 203.0.113.50 answered ${outside.status}`);
  expect(report, signIns > 0, "no password sign-in was counted");
  report.notes.push(
    `password sign-ins counted by the instances running now: ${signIns} (a killed instance's counts die with it); outside scrape → ${outside.status}`,
  );
  return report;
}
