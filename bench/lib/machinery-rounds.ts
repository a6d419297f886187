import { performance } from "node:perf_hooks";
import { type MachineryPiece, switchMachinery } from "@kpi-id/server/testing";
import { roundOrder } from "./interleaved-rounds.ts";

/** One operation of a bench the piece claimed to speed up (a refresh, a userinfo, a ticket exchange). */
export interface Workload {
  name: string;
  operation(): Promise<void>;
  /** A round ends after this many operations (one-time tickets) or after `roundSeconds`, whichever comes first. */
  operationsPerRound?: number;
}

export interface OnOff {
  /** Median over the rounds of the rate with the piece on and off, operations per second, one in flight. */
  on: number;
  off: number;
  /** The median of each pair of rounds' on ÷ off: the drift of a shared machine falls on both of a pair. */
  gain: number;
  /**
   * The same for this process' CPU time per operation, off ÷ on: what the piece saves of the service's own work,
   * which a busy machine's scheduling moves far less than a rate (the database's processes are not counted).
   */
  cpuGain: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

async function round(workload: Workload, seconds: number): Promise<{ rate: number; cpuPerOperation: number }> {
  const limit = workload.operationsPerRound ?? Number.POSITIVE_INFINITY;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const until = start + seconds * 1000;
  let done = 0;
  while (performance.now() < until && done < limit) {
    await workload.operation();
    done++;
  }
  const rate = done / ((performance.now() - start) / 1000);
  const used = process.cpuUsage(cpu);
  return { rate, cpuPerOperation: (used.user + used.system) / Math.max(done, 1) };
}

/**
 * The workload with `piece` on and off in alternating rounds (on off, off on, on off, …), one operation in flight,
 * each side warmed first; the piece is left on at the end.
 */
export async function onAndOff(
  piece: MachineryPiece,
  workload: Workload,
  options: { rounds: number; roundSeconds: number; warmupOperations: number },
): Promise<OnOff> {
  const rates: [number[], number[]] = [[], []];
  const cpu: [number[], number[]] = [[], []];
  try {
    for (const on of [true, false]) {
      switchMachinery(piece, on);
      for (let i = 0; i < options.warmupOperations; i++) await workload.operation();
    }
    for (let index = 0; index < options.rounds; index++) {
      for (const side of roundOrder(2, index)) {
        switchMachinery(piece, side === 0);
        const measured = await round(workload, options.roundSeconds);
        rates[side]?.push(measured.rate);
        cpu[side]?.push(measured.cpuPerOperation);
      }
    }
  } finally {
    switchMachinery(piece, true);
  }
  const [on, off] = rates;
  const [cpuOn, cpuOff] = cpu;
  return {
    on: median(on),
    off: median(off),
    gain: median(on.map((rate, index) => rate / (off[index] ?? rate))),
    cpuGain: median(cpuOn.map((used, index) => (cpuOff[index] ?? used) / used)),
  };
}
