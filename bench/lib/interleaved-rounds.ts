import { performance } from "node:perf_hooks";
import { percentile } from "./measure.ts";
import { procCpuSeconds } from "./process-usage.ts";

/** What one side of a comparison did over all its rounds. */
export interface SideTotals {
  /** Completed operations per second over the time its rounds ran. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time its server process used per completed operation, in milliseconds. */
  cpuMsPerOperation: number;
  operations: number;
  /** Failed operations (only a side that tolerates failures gets this far with any). */
  failures: number;
}

export interface Side {
  name: string;
  /** The server process whose CPU time is counted. */
  pid: number;
  /** One operation by worker `worker` (0 … inFlight − 1); throws when it fails. */
  operation(worker: number): Promise<void>;
  /**
   * Set only when asked for (a server with a known fault under load): a failure is counted and the worker goes on
   * after `recover` (a new refresh chain, say); otherwise the first failure fails the comparison.
   */
  tolerateFailures?: { recover(worker: number): Promise<void> };
}

/** A side run in this process (its CPU counted with the bench's own). */
export function inThisProcess(name: string, operation: Side["operation"]): Side {
  return { name, pid: process.pid, operation };
}

interface Round {
  operations: number;
  seconds: number;
  cpuSeconds: number;
  latencies: number[];
  failures: string[];
}

export interface RoundOptions {
  inFlight: number;
  rounds: number;
  roundSeconds: number;
  /**
   * A round also ends after this many operations: for operations that each use up something made beforehand (a
   * one-time ticket), so that a fast machine cannot run out of them.
   */
  operationsPerRound?: number;
  /** Operations each worker of each side runs before the rounds, not counted: both sides' code warmed alike. */
  warmupOperations?: number;
}

/** `inFlight` workers for a round, each running the operation again as soon as its last one ends. */
async function runRound(side: Side, options: RoundOptions): Promise<Round> {
  const { inFlight, roundSeconds, operationsPerRound = Number.POSITIVE_INFINITY } = options;
  const latencies: number[] = [];
  const failures: string[] = [];
  const cpuBefore = procCpuSeconds(side.pid);
  const start = performance.now();
  const until = start + roundSeconds * 1000;
  let started = 0;
  const worker = async (index: number) => {
    while (performance.now() < until && started < operationsPerRound) {
      started++;
      const began = performance.now();
      try {
        await side.operation(index);
      } catch (error) {
        failures.push(`${side.name}, worker ${index}: ${(error as Error).message}`);
        // A worker's chain (its refresh token) may be broken after a failure: it stops, or starts a new one.
        if (!side.tolerateFailures) return;
        await side.tolerateFailures.recover(index);
        continue;
      }
      latencies.push(performance.now() - began);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, index) => worker(index)));
  const elapsed = (performance.now() - start) / 1000;
  return {
    operations: latencies.length,
    seconds: elapsed,
    cpuSeconds: procCpuSeconds(side.pid) - cpuBefore,
    latencies,
    failures,
  };
}

/** The order of the sides in round `round`: each round starts with the next side, so each takes every place. */
export function roundOrder(sideCount: number, round: number): number[] {
  return Array.from({ length: sideCount }, (_, index) => (index + round) % sideCount);
}

/**
 * Runs the sides in alternating rounds (A B, B A, A B, … for two; A B C, B C A, C A B, … for three) so the machine's
 * noise and any drift over the run (PostgreSQL's commits get cheaper or dearer) falls on all of them, and answers each
 * side's totals in the order given. Any failed operation fails the comparison: every failure is printed, then an error
 * names how many there were.
 */
export async function interleavedRounds<Sides extends readonly Side[]>(
  sides: Sides,
  options: RoundOptions,
): Promise<{ [Index in keyof Sides]: SideTotals }> {
  const rounds = sides.map(() => [] as Round[]);
  for (const side of sides) {
    for (let worker = 0; worker < options.inFlight; worker++) {
      for (let done = 0; done < (options.warmupOperations ?? 0); done++) await side.operation(worker);
    }
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const index of roundOrder(sides.length, round)) {
      const side = sides[index] as Side;
      const result = await runRound(side, options);
      rounds[index]?.push(result);
      for (const failure of result.failures) console.error(`  failed: ${failure}`);
      if (result.failures.length > 0 && !side.tolerateFailures) {
        throw new Error(
          `${result.failures.length} failed operation(s) at ${options.inFlight} in flight against ${side.name} ` +
            `(round ${round + 1}); a comparison with failures is not a comparison`,
        );
      }
    }
  }
  const totals = rounds.map((sideRounds): SideTotals => {
    const operations = sideRounds.reduce((sum, round) => sum + round.operations, 0);
    const seconds = sideRounds.reduce((sum, round) => sum + round.seconds, 0);
    const cpuSeconds = sideRounds.reduce((sum, round) => sum + round.cpuSeconds, 0);
    const latencies = sideRounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
    return {
      rate: operations / seconds,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      cpuMsPerOperation: operations === 0 ? Number.NaN : (cpuSeconds * 1000) / operations,
      operations,
      failures: sideRounds.reduce((sum, round) => sum + round.failures.length, 0),
    };
  });
  return totals as { [Index in keyof Sides]: SideTotals };
}
