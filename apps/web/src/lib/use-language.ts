import { useTranslation } from "react-i18next";
import { type Language, toLanguage } from "./languages.ts";

/** The current UI language, always one of ours. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}
