import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "@/lib/use-language.ts";

const localeOf = (language: string) => (language === "uk" ? "uk-UA" : "en-GB");

/** Dates, numbers and durations for the keys and service screens, in the page's language. */
export function useServiceWords() {
  const { t } = useTranslation("admin-service");
  const locale = localeOf(useLanguage());
  return useMemo(() => wordsFor(t, locale), [t, locale]);
}

function wordsFor(t: TFunction, locale: string) {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return {
    date: (iso: string) => new Date(iso).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" }),
    day: (iso: string) => new Date(iso).toLocaleDateString(locale, { dateStyle: "long" }),
    time: (at: Date) => at.toLocaleTimeString(locale),
    number: (value: number) => number.format(value),
    /** A span of time in its two largest units: "3 days 4 hours", "12 minutes". */
    duration(seconds: number): string {
      const units = [
        ["days", Math.floor(seconds / 86_400)],
        ["hours", Math.floor(seconds / 3600) % 24],
        ["minutes", Math.floor(seconds / 60) % 60],
        ["seconds", Math.floor(seconds) % 60],
      ] as const;
      const first = units.findIndex(([, count]) => count > 0);
      if (first === -1) return t("admin-service:units.seconds", { count: 0 });
      return units
        .slice(first, first + 2)
        .filter(([, count]) => count > 0)
        .map(([unit, count]) => t(`admin-service:units.${unit}`, { count }))
        .join(" ");
    },
    /** Seconds as milliseconds under a second ("12 ms"), seconds above. */
    latency: (seconds: number) =>
      seconds < 1
        ? t("admin-service:units.ms", { value: number.format(seconds * 1000) })
        : t("admin-service:units.s", { value: number.format(seconds) }),
    bytes: (bytes: number) => t("admin-service:units.mb", { value: number.format(bytes / 1024 / 1024) }),
  };
}
