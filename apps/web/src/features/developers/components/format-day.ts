import type { Language } from "@/lib/languages.ts";

/** "11 December 2026" / "11 грудня 2026 р.": the day an invitation expires, in the page's language. */
export function formatDay(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(language === "uk" ? "uk-UA" : "en-GB", { dateStyle: "long" }).format(new Date(iso));
}
