import { type ClassValue, clsx } from "clsx";
import { assertNoConflictingClasses } from "./class-conflicts.ts";

/**
 * Joins class names. A component's classes and its caller's must not set the same property: variants
 * carry what differs (a Button's `size`, a Spinner's `size`) instead of a later class overriding an
 * earlier one, which development builds and the component tests check.
 */
export function cn(...inputs: ClassValue[]): string {
  const classList = clsx(inputs);
  if (import.meta.env.DEV) assertNoConflictingClasses(classList);
  return classList;
}
