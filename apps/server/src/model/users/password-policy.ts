import {
  blocklistReason,
  NEW_PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordContext,
  passwordContextWords,
  passwordLength,
} from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";

let commonPasswords: Promise<Set<string>> | undefined;

/** The common-password list of @zxcvbn-ts/language-common (about 30 000 entries), loaded once on first use. */
function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((word) => word.toLowerCase())),
  );
  return commonPasswords;
}

/**
 * Refuses a new password with a code: password.too_short (under 8 characters), password.too_long
 * (over 128), password.blocklisted (common, repetitive, or built on context words). No composition
 * rules: any characters, spaces and emoji included.
 */
export async function checkNewPassword(password: string, context: PasswordContext): Promise<void> {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) throw new AppError("password.too_short");
  if (length > NEW_PASSWORD_MAX_LENGTH) throw new AppError("password.too_long");
  const words = passwordContextWords(context);
  if (blocklistReason(password, words, await loadCommonPasswords())) throw new AppError("password.blocklisted");
}
