export const languages = ["uk", "en"] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = "uk";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

/** Narrows whatever i18next reports (it may be "en-US" or undefined) to one of ours. */
export function toLanguage(value: string | undefined): Language {
  const base = value?.split("-")[0];
  return isLanguage(base) ? base : fallbackLanguage;
}
