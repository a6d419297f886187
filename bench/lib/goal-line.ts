import type { Comparison, Goal, Measurement } from "./types.ts";

/** The figure a goal judges: the ratio, or the difference when the goal is stated as room over the floor. */
export function goalFigure(goal: Goal, subject: Measurement, baseline: Measurement): number {
  if (goal.measure === "p99") return subject.p99Ms ?? Number.POSITIVE_INFINITY;
  return goal.measure === "difference" ? subject.value - baseline.value : subject.value / baseline.value;
}

/**
 * One row of issue 63's table as a line a script can check (docs/performance.md):
 * `GOAL <name> ratio=<n> floor=<floor> goal=<n> [unit=MiB|ms] met=<yes|no>`; undefined for a comparison with no goal.
 */
export function goalLine(comparison: Comparison): string | undefined {
  const goal = comparison.goal;
  if (!goal) return undefined;
  const figure = goalFigure(goal, comparison.subject, comparison.baseline);
  // Judged on the printed figure, so a reader comparing the two numbers of the line never sees a contradiction.
  const printed = Number(figure.toFixed(2));
  const met = Number.isFinite(printed) && (goal.bound === "atLeast" ? printed >= goal.target : printed <= goal.target);
  const unit =
    goal.measure === "difference" ? ` unit=${comparison.subject.unit}` : goal.measure === "p99" ? " unit=ms" : "";
  return `GOAL ${goal.name} ratio=${printed.toFixed(2)} floor=${goal.floor} goal=${goal.target}${unit} met=${met ? "yes" : "no"}`;
}
