import { twMerge } from "tailwind-merge";

/**
 * Throws when a class list holds two Tailwind classes that set the same property (`text-sm` and
 * `text-base`): which one applies would then depend on the order of the style sheet's rules, not on the
 * order written. Only development builds and the component tests run it (`cn`), so tailwind-merge, whose
 * first call builds a table of every Tailwind class (about 35 ms on the build machine), is not in the
 * production bundle.
 */
export function assertNoConflictingClasses(classList: string): void {
  const kept = new Set(twMerge(classList).split(" "));
  const overridden = classList.split(" ").filter((name) => name !== "" && !kept.has(name));
  if (overridden.length > 0) {
    throw new Error(`conflicting Tailwind classes: ${overridden.join(" ")} overridden in "${classList}"`);
  }
}
