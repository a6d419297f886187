import type { Language } from "@/lib/languages.ts";

/** "23 Nov 2026, 14:05" in the page's language. */
export function formatInstant(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** "Firefox 128 · Android 14", or what the person's language calls an unknown device. */
export function deviceName(browser: string, system: string, unknown: string): string {
  return [browser, system].filter(Boolean).join(" · ") || unknown;
}

/** An audit event's time as the console shows it: "23 лист. 2026 р., 14:05" or "23 Nov 2026, 14:05". */
export const formatEventInstant = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language === "uk" ? "uk-UA" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
