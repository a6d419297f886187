import type { Comparison } from "./types.ts";

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
  /** `ratio` (subject ÷ baseline, the default) or `difference` (subject − baseline, in the figures' unit). */
  measure?: "ratio" | "difference";
}

/** The figure a goal judges: the ratio, or the difference when the goal is stated as room over the floor. */
export function goalFigure(goal: Goal, subject: number, baseline: number): number {
  return goal.measure === "difference" ? subject - baseline : subject / baseline;
}

/** The machine-readable line of one comparison that carries a goal; undefined for one that carries none. */
export function goalLine(comparison: Comparison): string | undefined {
  const goal = comparison.goal;
  if (!goal) return undefined;
  const figure = goalFigure(goal, comparison.subject.value, comparison.baseline.value);
  // Judged on the printed figure, so a reader comparing the two numbers of the line never sees a contradiction.
  const printed = Number(figure.toFixed(2));
  const met = Number.isFinite(printed) && (goal.bound === "atLeast" ? printed >= goal.target : printed <= goal.target);
  const unit = goal.measure === "difference" ? ` unit=${comparison.subject.unit}` : "";
  return `GOAL ${goal.name} ratio=${printed.toFixed(2)} floor=${goal.floor} goal=${goal.target}${unit} met=${met ? "yes" : "no"}`;
}
