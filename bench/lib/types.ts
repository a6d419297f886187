/** One figure a benchmark measured. */
export interface Measurement {
  label: string;
  value: number;
  unit: string;
  /** Latency of one operation, when the driver measured it. */
  p50Ms?: number;
  p99Ms?: number;
}

/** A figure and the baseline it is judged against, both measured in the same run. */
export interface Comparison {
  subject: Measurement;
  baseline: Measurement;
  /** How it was measured (driver, concurrency, database). */
  method: string;
}

/** What every bench/*.bench.ts module exports. */
export interface BenchModule {
  title: string;
  run(): Promise<Comparison[]>;
}
