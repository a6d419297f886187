import { defaultLanguage, languages, startNamespaces } from "@kpi-id/contracts";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { bootData } from "./boot-data.ts";
import { languageDetector, localeBackend } from "./i18n-loading.ts";

export const namespaces = startNamespaces;

/**
 * A key with its namespace, "account:errors.generic", for helpers that take a key to translate later: the build's
 * locale check (scripts/locales-check.ts) finds the keys the source names by that form, so one written without its
 * namespace, or only in part, would go unchecked.
 */
export type NamespacedKey = `${string}:${string}`;

export const i18n = i18next.createInstance();

interface InitOptions {
  /** Development builds log and report missing keys to the server for translators. */
  development?: boolean;
}

export function initI18n({ development = import.meta.env.DEV }: InitOptions = {}) {
  return i18n
    .use(localeBackend)
    .use(languageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...languages],
      fallbackLng: defaultLanguage,
      nonExplicitSupportedLngs: false,
      load: "languageOnly",
      ns: [...namespaces],
      // The page brings the first screen's translations; the HTTP backend loads whatever else is asked for.
      resources: bootData().translations,
      partialBundledLanguages: true,
      defaultNS: "common",
      saveMissing: development,
      debug: development,
      // React already escapes what it renders.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}
