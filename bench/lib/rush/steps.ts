import { sent } from "./browser.ts";
import { type Campus, type PeakRates, stepSeconds } from "./campus.ts";
import { coreTicks, cpuBetween, sampleCpu, type Tier, type TierProcesses } from "./cpu.ts";
import { serverCore } from "./instance.ts";
import { arrival, helpdeskSearch, scimChange } from "./journeys.ts";
import { describePhases, phasesBetween, type SignInPhases } from "./limit.ts";
import { percentile, Recorder, runOpenLoop, type Stream } from "./open-loop.ts";
import type { RushCampus } from "./rush-campus.ts";

// One step of the rush: every stream at `multiple` × the campus peak for the step's time, then its figures.

/**
 * A step holds when every kind of KPI ID's requests answers within this at the 99th percentile, and nothing fails.
 * A journey through a stand-in (informative) is not held to it: the stand-in's pages and signatures are not KPI
 * ID's (docs/capacity.md, "What the criterion times").
 */
export const p99LimitMs = 500;

export interface LabelFigures {
  label: string;
  count: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  /** Timed for information (a whole journey through a stand-in); its failures count, its p99 does not. */
  informative: boolean;
}

export interface StepResult {
  multiple: number;
  seconds: number;
  arrivals: number;
  /** Timed operations (the tables' rows count these; an authorize is its redirects together). */
  operations: number;
  /** HTTP requests sent, every hop counted: CPU per request divides by these. */
  requests: number;
  failures: number;
  failureSamples: string[];
  labels: LabelFigures[];
  cpu: Record<Tier, number>;
  /** What password sign-ins waited for, from KPI ID's metrics (limit.ts). */
  phases: SignInPhases;
  eventLoopLagP99Ms: number;
  /** How busy the server's core was (all processes), 0–1: well above KPI ID's own share, others used it too. */
  serverCoreBusy: number;
  held: boolean;
}

export interface StepContext {
  campus: Campus;
  rates: PeakRates;
  rush: RushCampus;
  processes: TierProcesses;
  /** Extra streams (the eduroam devices when FreeRADIUS runs), at the step's multiple of their peak. */
  extraStreams?: (multiple: number, recorder: Recorder) => Stream[];
  /** KPI ID's /metrics by series (instance.ts's serverMetrics). */
  metrics: () => Promise<Map<string, number>>;
}

export function figuresOf(recorder: Recorder): LabelFigures[] {
  const labels = new Set([...recorder.latencies.keys(), ...recorder.failures.keys()]);
  return [...labels].sort().map((label) => {
    const sorted = [...(recorder.latencies.get(label) ?? [])].sort((a, b) => a - b);
    return {
      label,
      count: sorted.length,
      failures: recorder.failures.get(label) ?? 0,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      informative: recorder.informative.has(label),
    };
  });
}

export async function runStep(context: StepContext, multiple: number): Promise<StepResult> {
  const { rates, rush } = context;
  const recorder = new Recorder();
  const seconds = stepSeconds(context.campus);
  const streams: Stream[] = [
    { ratePerSecond: rates.arrivals * multiple, start: () => arrival(rush, recorder) },
    { ratePerSecond: rates.searches * multiple, start: () => helpdeskSearch(rush, recorder) },
    { ratePerSecond: rates.scimChanges * multiple, start: () => scimChange(rush, recorder) },
    ...(context.extraStreams?.(multiple, recorder) ?? []),
  ];
  const metricsBefore = await context.metrics();
  const before = sampleCpu(context.processes);
  const coreBefore = coreTicks(serverCore);
  const requestsBefore = sent.requests;
  const began = performance.now();
  // The work a step started ends within it (each request gives up after 30 s), not in the next step's figures.
  const [arrivals = 0] = await runOpenLoop(streams, seconds, 600);
  const elapsed = (performance.now() - began) / 1000;
  const cpu = cpuBetween(before, sampleCpu(context.processes));
  const coreAfter = coreTicks(serverCore);
  const labels = figuresOf(recorder);
  const metricsAfter = await context.metrics();
  const held = recorder.failureCount === 0 && labels.every((each) => each.informative || !(each.p99Ms >= p99LimitMs));
  return {
    multiple,
    seconds: elapsed,
    arrivals,
    operations: recorder.requests,
    requests: sent.requests - requestsBefore,
    failures: recorder.failureCount,
    failureSamples: recorder.failureSamples,
    labels,
    cpu,
    phases: phasesBetween(metricsBefore, metricsAfter),
    eventLoopLagP99Ms: (metricsAfter.get("kpi_id_nodejs_eventloop_lag_p99_seconds") ?? Number.NaN) * 1000,
    serverCoreBusy: (coreAfter.busy - coreBefore.busy) / Math.max(1, coreAfter.total - coreBefore.total),
    held,
  };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0).padStart(6) : "     —");

export function printStep(step: StepResult): void {
  const perRequest = (seconds: number) =>
    step.requests > 0 ? `${((seconds / step.requests) * 1000).toFixed(2)} ms` : "—";
  console.log(
    `  step ×${step.multiple}: ${step.arrivals} people arrived in ${step.seconds.toFixed(0)} s, ` +
      `${step.operations} operations (${step.requests} HTTP requests), ${step.failures} failed — ${step.held ? "held" : "DID NOT HOLD"}`,
  );
  console.log(`    ${"request".padEnd(40)} ${"count".padStart(6)} ${"failed".padStart(6)}    p50 ms    p99 ms`);
  for (const each of step.labels) {
    console.log(
      `    ${each.label.padEnd(40)} ${String(each.count).padStart(6)} ${String(each.failures).padStart(6)}    ` +
        `${ms(each.p50Ms)}    ${ms(each.p99Ms)}${each.informative ? "   (journey, for information)" : ""}`,
    );
  }
  console.log(
    `    CPU per request: KPI ID ${perRequest(step.cpu["kpi-id"])}, PostgreSQL ${perRequest(step.cpu.postgresql)}, ` +
      `FreeRADIUS ${perRequest(step.cpu.freeradius)}; cores busy: KPI ID ${(step.cpu["kpi-id"] / step.seconds).toFixed(2)}, ` +
      `PostgreSQL ${(step.cpu.postgresql / step.seconds).toFixed(2)}, the stand-ins ${(step.cpu["stand-ins"] / step.seconds).toFixed(2)}; ` +
      `event-loop lag p99 ${step.eventLoopLagP99Ms.toFixed(0)} ms`,
  );
  console.log(`    ${describePhases(step.phases)}`);
  const others = step.serverCoreBusy - step.cpu["kpi-id"] / step.seconds;
  if (others > 0.2)
    console.log(
      `    note: the server's core was ${(step.serverCoreBusy * 100).toFixed(0)}% busy, ${(others * 100).toFixed(0)} points of it ` +
        "other processes': this step measured a shared core, not KPI ID's limit",
    );
  for (const sample of step.failureSamples) console.log(`    failure: ${sample}`);
}
