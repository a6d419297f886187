import { NEW_PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordLength, serviceContextWords } from "@kpi-id/contracts";
import { AppError } from "../errors.ts";

/** Who the password is for: their own words may not make it up. */
export interface PasswordContext {
  username: string;
  fullName: string;
  email?: string | null;
}

let commonPasswords: Promise<Set<string>> | undefined;

/** The common-password list of @zxcvbn-ts/language-common (about 30 000 entries), loaded once on first use. */
function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((word) => word.toLowerCase())),
  );
  return commonPasswords;
}

const normalize = (value: string) => value.normalize("NFKC").toLowerCase();

/** The person's own words: username, parts of the name and of the address, the service's names. */
export function contextWords(context: PasswordContext): string[] {
  const own = [context.username, ...context.fullName.split(/\s+/), ...(context.email ?? "").split(/[@.+_-]/)];
  const words = [...own, ...serviceContextWords].map(normalize).filter((word) => [...word].length >= 3);
  return [...new Set(words)];
}

/** What is left of a password once context words and filler (digits, punctuation, spaces) are taken out. */
function remainderWithout(password: string, words: string[]): string {
  let rest = password;
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.split(word).join("");
  return rest.replace(/[\p{N}\p{P}\p{S}\s]/gu, "");
}

/** One character repeated ("aaaaaaaa") or a run of one word repeated ("abcabcabc"). */
function isRepetitive(password: string): boolean {
  return /^(.{1,3})\1+$/u.test(password);
}

type Check = (password: string, context: PasswordContext) => Promise<boolean> | boolean;

/** Each is one reason NIST SP 800-63B-4 names for refusing a password as easy to guess. */
const blocklistChecks: Check[] = [
  async (password) => (await loadCommonPasswords()).has(password),
  (password) => isRepetitive(password),
  // Made of the person's own words (or the service's) with only digits and symbols around them.
  (password, context) => {
    const words = contextWords(context);
    return words.some((word) => password.includes(word)) && [...remainderWithout(password, words)].length < 4;
  },
];

/**
 * Refuses a new password with a code: password.too_short (under 8 characters), password.too_long
 * (over 128), password.blocklisted (common, repetitive, or built on context words). No composition
 * rules: any characters, spaces and emoji included.
 */
export async function checkNewPassword(password: string, context: PasswordContext): Promise<void> {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) throw new AppError("password.too_short");
  if (length > NEW_PASSWORD_MAX_LENGTH) throw new AppError("password.too_long");
  const normalized = normalize(password);
  for (const check of blocklistChecks) {
    if (await check(normalized, context)) throw new AppError("password.blocklisted");
  }
}
