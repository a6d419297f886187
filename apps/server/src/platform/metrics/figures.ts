import type { ServiceFigures } from "@kpi-id/contracts";
import type { Registry } from "prom-client";

/** One sample of a metric as the registry reads it (prom-client does not export its own type). */
interface Sample {
  value: number;
  labels: Partial<Record<string, string | number>>;
  metricName?: string;
}
type Values = Sample[];

/** A metric's values as the registry would serve them (its collect runs), or none when it is not registered. */
async function valuesOf(registry: Registry, name: string): Promise<Values> {
  const metric = registry.getSingleMetric(name);
  return metric ? (await metric.get()).values : [];
}

function sumWhere(values: Values, keep: (labels: Sample["labels"]) => boolean = () => true): number {
  return values.filter((value) => keep(value.labels)).reduce((total, value) => total + value.value, 0);
}

function single(values: Values): number | null {
  return values[0]?.value ?? null;
}

/** Request counts and latency across every route, from the latency histogram's series. */
function requestFigures(values: Values): ServiceFigures["requests"] {
  const counts = values.filter((value) => value.metricName?.endsWith("_count"));
  const total = sumWhere(counts);
  const serverErrors = sumWhere(counts, (labels) => String(labels.status_code ?? "").startsWith("5"));
  const seconds = sumWhere(values.filter((value) => value.metricName?.endsWith("_sum")));
  // Buckets are cumulative per series; summed per bound they are cumulative over all routes.
  const buckets = new Map<number, number>();
  for (const value of values.filter((entry) => entry.metricName?.endsWith("_bucket"))) {
    const bound = value.labels.le === "+Inf" ? Number.POSITIVE_INFINITY : Number(value.labels.le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + value.value);
  }
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const p95 = bounds.find((bound) => (buckets.get(bound) ?? 0) >= total * 0.95);
  return {
    total,
    serverErrors,
    averageSeconds: total > 0 ? seconds / total : null,
    p95Seconds: total > 0 && p95 !== undefined && Number.isFinite(p95) ? p95 : null,
  };
}

/** The console's key figures, read from the registry `/metrics` serves (nothing is counted twice). */
export async function readServiceFigures(registry: Registry): Promise<ServiceFigures> {
  const [signIns, throttled, tickets, requests, pool, diia, memory, lag] = await Promise.all(
    [
      "kpi_id_sign_ins_total",
      "kpi_id_throttled_attempts_total",
      "kpi_id_ticket_exchanges_total",
      "kpi_id_http_request_duration_seconds",
      "kpi_id_db_pool_connections",
      "kpi_id_diia_pending_requests",
      "kpi_id_process_resident_memory_bytes",
      "kpi_id_nodejs_eventloop_lag_p99_seconds",
    ].map((name) => valuesOf(registry, name)),
  );
  const methods = [...new Set((signIns ?? []).map((value) => String(value.labels.method)))].sort();
  const byResult = (values: Values, result: string, method?: string) =>
    sumWhere(values, (labels) => labels.result === result && (method === undefined || labels.method === method));
  const poolState = (state: string) => sumWhere(pool ?? [], (labels) => labels.state === state);
  return {
    signIns: { success: byResult(signIns ?? [], "success"), failure: byResult(signIns ?? [], "failure") },
    signInsByMethod: methods.map((method) => ({
      method,
      success: byResult(signIns ?? [], "success", method),
      failure: byResult(signIns ?? [], "failure", method),
    })),
    throttledAttempts: sumWhere(throttled ?? []),
    ticketExchanges: { success: byResult(tickets ?? [], "success"), failure: byResult(tickets ?? [], "failure") },
    requests: requestFigures(requests ?? []),
    pool: { total: poolState("total"), idle: poolState("idle"), waiting: poolState("waiting") },
    diiaPending: single(diia ?? []),
    memoryBytes: single(memory ?? []),
    eventLoopLagSeconds: single(lag ?? []),
  };
}
