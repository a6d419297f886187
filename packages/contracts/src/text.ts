import { z } from "zod";

/**
 * The message a `text()` check fails with; the server answers it with
 * 400 `request.unstorable_text` instead of a generic validation failure.
 */
export const UNSTORABLE_TEXT_MESSAGE = "contains a character that cannot be stored (U+0000)";

/** PostgreSQL `text` and `jsonb` cannot hold U+0000; every other code point is fine. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000");
}

/**
 * The one string type of every schema that reads outside input: a string that
 * PostgreSQL can store. Use it instead of `z.string()`, then chain as usual.
 */
export function text() {
  return z.string().refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE, abort: true });
}
