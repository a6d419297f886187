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
