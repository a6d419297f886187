import { initReactI18next } from "react-i18next";
import { i18n } from "@/lib/i18n.ts";

type Resources = Record<string, Record<string, unknown>>;

// Vite reads the translation files at import time, so the tests use exactly what ships.
const files = import.meta.glob<Record<string, unknown>>("../public/locales/*/*.json", {
  eager: true,
  import: "default",
});

function readResources(): Record<string, Resources> {
  const resources: Record<string, Resources> = {};
  for (const [path, content] of Object.entries(files)) {
    const [, language = "", namespace = ""] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
    resources[language] = { ...resources[language], [namespace]: content };
  }
  return resources;
}

/** The app's i18next instance with the real translation files, read from disk instead of over HTTP. */
export async function initTestI18n(language: "uk" | "en" = "uk"): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: readResources(),
      lng: language,
      fallbackLng: "uk",
      defaultNS: "common",
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  }
  await i18n.changeLanguage(language);
}
