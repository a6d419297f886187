import { performance } from "node:perf_hooks";

/**
 * Runs `operation` one at a time for about `durationMs` (after `warmup` runs)
 * and answers operations per second. One operation in flight at a time keeps
 * it to one core's worth of work: the figure is per core.
 */
export async function sequentialRate(
  operation: () => Promise<unknown>,
  durationMs: number,
  warmup = 2,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await operation();
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < durationMs || count < 3) {
    await operation();
    count++;
  }
  return count / ((performance.now() - start) / 1000);
}

/**
 * Runs `operation` with `inFlight` workers at a time for about `durationMs` (after one warm-up run of each worker)
 * and answers completions per second. Each worker gets its index, so it can keep a chain of its own (a person, a
 * rotating refresh token).
 */
export async function concurrentRate(
  operation: (worker: number) => Promise<unknown>,
  inFlight: number,
  durationMs: number,
): Promise<number> {
  for (let i = 0; i < inFlight; i++) await operation(i);
  let done = 0;
  const until = performance.now() + durationMs;
  const start = performance.now();
  const worker = async (index: number) => {
    while (performance.now() < until) {
      await operation(index);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, index) => worker(index)));
  return done / ((performance.now() - start) / 1000);
}

export interface Timed {
  /** Operations per second, one at a time. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
}

export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/**
 * sequentialRate, also answering the median and 99th percentile of each operation's time. `done`
 * ends the run early (while something else runs alongside, say), after at least three operations.
 */
export async function sequentialTimings(
  operation: () => Promise<unknown>,
  durationMs: number,
  warmup = 2,
  maxOperations = Number.POSITIVE_INFINITY,
  done: () => boolean = () => false,
): Promise<Timed> {
  for (let i = 0; i < warmup; i++) await operation();
  const times: number[] = [];
  const start = performance.now();
  while ((times.length < 3 || (performance.now() - start < durationMs && !done())) && times.length < maxOperations) {
    const began = performance.now();
    await operation();
    times.push(performance.now() - began);
  }
  const rate = times.length / ((performance.now() - start) / 1000);
  times.sort((a, b) => a - b);
  return { rate, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}
