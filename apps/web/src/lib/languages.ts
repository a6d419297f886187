import { baseLanguage, defaultLanguage, type Language } from "@kpi-id/contracts";

export { isLanguage, type Language, languages } from "@kpi-id/contracts";

/** Narrows whatever i18next reports (it may be "en-US" or undefined) to one of ours. */
export function toLanguage(value: string | undefined): Language {
  return baseLanguage(value) ?? defaultLanguage;
}
