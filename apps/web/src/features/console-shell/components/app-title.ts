import { useCallback } from "react";
import { useLanguage } from "@/lib/use-language.ts";

/** An application as the console names it: the Ukrainian title, and the English one where the operator gave it. */
export interface TitledApplication {
  title: string;
  titleEn: string;
}

/** The application's title in the page's language: English screens fall back to the Ukrainian title only when no English one is set. */
export function useAppTitle(): (application: TitledApplication) => string {
  const language = useLanguage();
  return useCallback(
    (application) => (language === "en" && application.titleEn ? application.titleEn : application.title),
    [language],
  );
}
