// What a step's password sign-ins waited for, from KPI ID's own metrics read before and after the step
// (platform/http/password-check-metrics.ts), and the limit named from it: the largest measured share of a
// sign-in's time, or KPI ID's core when it was full (then every phase only waits on the core).

export interface SignInPhases {
  /** Password checks (argon2id) made in the step. */
  checks: number;
  /** Mean ms a check waited for its turn in the instance's line. */
  waitMs: number;
  /** Mean ms a check's argon2id took (above its CPU cost when the core was shared). */
  argon2Ms: number;
  /** Mean ms a password sign-in spent in its database statements. */
  databaseMs: number;
  /** Mean event-loop lag over the step (ms): what every request waits before its turn on the loop. */
  eventLoopMeanMs: number;
  /** Checks refused (line full, wait too long, client gone) in the step. */
  refused: number;
}

export type Limit = "CPU" | "argon2" | "database" | "event loop";

const difference = (before: Map<string, number>, after: Map<string, number>, series: string) =>
  (after.get(series) ?? 0) - (before.get(series) ?? 0);

const sumOf = (metrics: Map<string, number>, prefix: string) =>
  [...metrics].filter(([series]) => series.startsWith(prefix)).reduce((total, [, value]) => total + value, 0);

export function phasesBetween(before: Map<string, number>, after: Map<string, number>): SignInPhases {
  const mean = (name: string, labels = "") =>
    (difference(before, after, `${name}_sum${labels}`) * 1000) /
    Math.max(1, difference(before, after, `${name}_count${labels}`));
  return {
    checks: difference(before, after, 'kpi_id_password_check_seconds_count{phase="argon2"}'),
    waitMs: mean("kpi_id_password_check_seconds", '{phase="wait"}'),
    argon2Ms: mean("kpi_id_password_check_seconds", '{phase="argon2"}'),
    databaseMs: mean("kpi_id_password_sign_in_database_seconds"),
    // prom-client resets its event-loop histogram at each scrape: the value after the step covers the step.
    eventLoopMeanMs: (after.get("kpi_id_nodejs_eventloop_lag_mean_seconds") ?? Number.NaN) * 1000,
    refused:
      sumOf(after, "kpi_id_password_checks_refused_total") - sumOf(before, "kpi_id_password_checks_refused_total"),
  };
}

/**
 * KPI ID's core when it was (nearly) full; otherwise the largest of what a password sign-in waited for: its turn
 * or its check (argon2), its statements (database), or the event loop.
 */
export function limitOf(phases: SignInPhases, kpiCoreBusy: number): Limit {
  if (kpiCoreBusy >= 0.85) return "CPU";
  const candidates: [Limit, number][] = [
    ["argon2", phases.waitMs + phases.argon2Ms],
    ["database", phases.databaseMs],
    ["event loop", phases.eventLoopMeanMs],
  ];
  const finite = candidates.filter(([, value]) => Number.isFinite(value));
  return finite.reduce((largest, each) => (each[1] > largest[1] ? each : largest), finite[0] ?? ["CPU", 0])[0];
}

export function describePhases(phases: SignInPhases): string {
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "—");
  return (
    `per password check (${phases.checks}): turn waited ${ms(phases.waitMs)}, argon2id ${ms(phases.argon2Ms)}; ` +
    `per sign-in in the database ${ms(phases.databaseMs)}; event-loop lag mean ${ms(phases.eventLoopMeanMs)}` +
    (phases.refused > 0 ? `; ${phases.refused} checks refused` : "")
  );
}
