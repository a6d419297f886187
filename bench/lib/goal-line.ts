import type { Comparison, Goal } from "./types.ts";

/** The figure a goal judges: the ratio, or the difference when the goal is stated as room over the floor. */
export function goalFigure(goal: Goal, subject: number, baseline: number): number {
  return goal.measure === "difference" ? subject - baseline : subject / baseline;
}

/**
 * One row of issue 63's table as a line a script can check (docs/performance.md):
 * `GOAL <name> ratio=<n> floor=<floor> goal=<n> [unit=MiB] met=<yes|no>`; undefined for a comparison with no goal.
 */
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
