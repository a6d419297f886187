import type { ErrorCode } from "./errors.ts";
import { enErrorMessages } from "./messages-en.ts";
import { ukErrorMessages } from "./messages-uk.ts";

/** The languages of the interface; Ukrainian is the default and the fallback. */
export const languages = ["uk", "en"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "uk";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

type ErrorMessages = Record<ErrorCode, string>;

// The messages of each language live in their own file; both must hold every error code.
export { enErrorMessages } from "./messages-en.ts";
export { ukErrorMessages } from "./messages-uk.ts";

export const errorMessages: Record<Language, ErrorMessages> = { uk: ukErrorMessages, en: enErrorMessages };

export function errorMessage(code: ErrorCode, language: Language): string {
  return errorMessages[language][code];
}
