/** One figure a benchmark measured. */
export interface Measurement {
  label: string;
  value: number;
  unit: string;
  /** Latency of one operation, when the driver measured it. */
  p50Ms?: number;
  p99Ms?: number;
}

import type { Goal } from "./goal-line.ts";

/** A figure and the baseline it is judged against, both measured in the same run. */
export interface Comparison {
  subject: Measurement;
  baseline: Measurement;
  /** How it was measured (driver, concurrency, database). */
  method: string;
  /** Set when this comparison is a row of issue 63's table: run.ts then prints its `GOAL` line too. */
  goal?: Goal;
}

/** What every bench/*.bench.ts module exports. */
export interface BenchModule {
  title: string;
  run(): Promise<Comparison[]>;
}
