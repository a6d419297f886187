import { serviceContextWords } from "./password.ts";

/** Who a new password is for: their own words may not make it up. */
export interface PasswordContext {
  username: string;
  fullName: string;
  email?: string | null;
}

/** Why a password is refused as easy to guess (NIST SP 800-63B-4's reasons), one each. */
export type BlocklistReason = "common" | "repetitive" | "ownWords";

const normalize = (value: string) => value.normalize("NFKC").toLowerCase();

/** The words a password may not be built on: the given ones and the service's names, normalised, 3+ characters. */
export function blockedWords(own: readonly string[]): string[] {
  const words = [...own, ...serviceContextWords].map(normalize).filter((word) => [...word].length >= 3);
  return [...new Set(words)];
}

/** The person's own words: username, parts of the name and of the address, the service's names. */
export function passwordContextWords(context: PasswordContext): string[] {
  return blockedWords([context.username, ...context.fullName.split(/\s+/), ...(context.email ?? "").split(/[@.+_-]/)]);
}

/** What is left of a password once context words and filler (digits, punctuation, spaces) are taken out. */
function remainderWithout(password: string, words: readonly string[]): string {
  let rest = password;
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.split(word).join("");
  return rest.replace(/[\p{N}\p{P}\p{S}\s]/gu, "");
}

/** One character repeated ("aaaaaaaa") or a run of one word repeated ("abcabcabc"). */
function isRepetitive(password: string): boolean {
  return /^(.{1,3})\1+$/u.test(password);
}

/**
 * Why KPI ID refuses this password (server and the page's meter alike, so they never disagree), or
 * undefined. `words` come from `passwordContextWords` or `blockedWords`; `commonPasswords` is
 * @zxcvbn-ts/language-common's list, lower-cased (each side loads it).
 */
export function blocklistReason(
  password: string,
  words: readonly string[],
  commonPasswords: ReadonlySet<string>,
): BlocklistReason | undefined {
  const normalized = normalize(password);
  if (commonPasswords.has(normalized)) return "common";
  if (isRepetitive(normalized)) return "repetitive";
  // Made of the person's own words (or the service's) with only digits and symbols around them.
  if (words.some((word) => normalized.includes(word)) && [...remainderWithout(normalized, words)].length < 4) {
    return "ownWords";
  }
  return undefined;
}
