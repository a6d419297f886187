import type { Language } from "@kpi-id/contracts";

interface Texts {
  title: string;
  title_en: string;
  description: string;
  description_en: string;
}

/** An application's title and description as a reader of `language` sees them: English where the operator gave it. */
export function localizedTexts(application: Texts, language: Language): { title: string; description: string } {
  const english = language === "en";
  return {
    title: (english && application.title_en) || application.title,
    description: (english && application.description_en) || application.description,
  };
}
