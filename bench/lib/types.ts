/** One figure a benchmark measured. */
export interface Measurement {
  label: string;
  value: number;
  unit: string;
  /** Latency of one operation, when the driver measured it. */
  p50Ms?: number;
  p99Ms?: number;
}

/**
 * One row of issue 63's table as a line a script can check: `GOAL <name> ratio=<n> floor=<floor> goal=<n> met=<yes|no>`.
 * A ratio goal compares subject ÷ baseline; a `MiB over floor` goal compares subject − baseline (then `unit=MiB`).
 */
export interface Goal {
  /** Short name, one word: refresh-1, userinfo, idle-rss… */
  name: string;
  /** The floor's short name (one word, no spaces), printed as `floor=`. */
  floor: string;
  /** The goal's bound: the least ratio for `atLeast`, the most ratio or MiB for `atMost`. */
  target: number;
  bound: "atLeast" | "atMost";
  /**
   * `ratio` (subject ÷ baseline, the default), `difference` (subject − baseline, in the figures' unit) or `p99`
   * (the subject's p99 latency in ms, for a goal stated as a time; the baseline is printed beside it only).
   */
  measure?: "ratio" | "difference" | "p99";
}

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
