import { performance } from "node:perf_hooks";

// Open-loop arrivals (issue 80): each stream starts its work at the times of a Poisson process at its rate,
// whether or not the work started earlier has finished, so a slow server meets the same arrivals and its queue
// shows in the latencies (a closed loop waits for the server and hides it).

/** Latencies (ms) and failures per kind of request, for one step. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly failures = new Map<string, number>();
  readonly failureSamples: string[] = [];
  /** When each failed request was sent and when it failed (performance.now()), for the failover's count. */
  readonly failureSpans: { label: string; began: number; ended: number }[] = [];
  /**
   * Labels timed for information only: a whole sign-in journey through a stand-in (its phone's or bank's pages and
   * signatures, which are not KPI ID's work). Their failures count; their latencies are not held to the step's p99.
   */
  readonly informative = new Set<string>();

  /** Runs `call`, timing it under `label`; a throw is a failure of that label (and is not rethrown). */
  async time<T>(label: string, call: () => Promise<T>): Promise<T | undefined> {
    const began = performance.now();
    try {
      const result = await call();
      this.record(label, performance.now() - began);
      return result;
    } catch (error) {
      this.failureSpans.push({ label, began, ended: performance.now() });
      this.fail(label, error);
      return undefined;
    }
  }

  /**
   * One of KPI ID's requests inside a journey, timed under its own label when it answers; a throw is rethrown for
   * the journey to record (counted once, as the journey's failure). `milliseconds` replaces the measured time when
   * the call knows better (the callback the Diia stand-in sent and timed itself).
   */
  async part<T>(label: string, call: () => Promise<T>, milliseconds?: (result: T) => number | undefined): Promise<T> {
    const began = performance.now();
    const result = await call();
    this.record(label, milliseconds?.(result) ?? performance.now() - began);
    return result;
  }

  /** A latency measured elsewhere (ms). */
  record(label: string, milliseconds: number): void {
    const list = this.latencies.get(label) ?? [];
    list.push(milliseconds);
    this.latencies.set(label, list);
  }

  fail(label: string, error: unknown): void {
    this.failures.set(label, (this.failures.get(label) ?? 0) + 1);
    if (this.failureSamples.length < 5) this.failureSamples.push(`${label}: ${String(error).slice(0, 300)}`);
  }

  /** Adds another recorder's figures to this one's. */
  merge(other: Recorder): void {
    for (const [label, list] of other.latencies)
      this.latencies.set(label, [...(this.latencies.get(label) ?? []), ...list]);
    for (const [label, count] of other.failures) this.failures.set(label, (this.failures.get(label) ?? 0) + count);
    this.failureSpans.push(...other.failureSpans);
    for (const sample of other.failureSamples) if (this.failureSamples.length < 5) this.failureSamples.push(sample);
    for (const label of other.informative) this.informative.add(label);
  }

  /** Operations timed: a journey timed for information counts through its parts (and its failure), not again. */
  get requests(): number {
    let total = 0;
    for (const [label, list] of this.latencies) if (!this.informative.has(label)) total += list.length;
    return total + this.failureCount;
  }

  get failureCount(): number {
    let total = 0;
    for (const count of this.failures.values()) total += count;
    return total;
  }
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A stream of work arriving at `ratePerSecond` (a Poisson process) for `seconds`. */
export interface Stream {
  ratePerSecond: number;
  start: () => Promise<void>;
}

/**
 * Runs the streams together for `seconds`, then waits (up to `drainSeconds`) for the work they started. Answers
 * how many arrivals each stream made. Work still running after the drain is left to the recorder's failures.
 */
export async function runOpenLoop(streams: Stream[], seconds: number, drainSeconds: number): Promise<number[]> {
  const began = performance.now();
  const end = began + seconds * 1000;
  const running = new Set<Promise<void>>();
  const counts = streams.map(() => 0);
  await Promise.all(
    streams.map(async (stream, index) => {
      if (stream.ratePerSecond <= 0) return;
      let next = began;
      for (;;) {
        next += (-Math.log(1 - Math.random()) / stream.ratePerSecond) * 1000;
        if (next >= end) return;
        await sleep(next - performance.now());
        counts[index] = (counts[index] ?? 0) + 1;
        const work = stream.start().finally(() => running.delete(work));
        running.add(work);
      }
    }),
  );
  // The drain's timer is cleared once the work is done: left running it would hold the process open.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, drainSeconds * 1000);
  });
  await Promise.race([Promise.all(running), timedOut]);
  clearTimeout(timer);
  return counts;
}
