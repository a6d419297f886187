import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import HttpBackend from "i18next-http-backend";
import { initReactI18next } from "react-i18next";
import { fallbackLanguage, languages } from "./languages.ts";

export const namespaces = ["common", "auth", "apps", "pages", "errors"] as const;

/** Where the language comes from, in order, and where the choice is remembered. */
export const detectionOptions = {
  order: ["path", "cookie", "localStorage"],
  lookupFromPathIndex: 0,
  lookupCookie: "i18next",
  lookupLocalStorage: "i18nextLng",
  caches: ["cookie", "localStorage"],
  cookieOptions: { path: "/", sameSite: "lax" as const },
};

export const i18n = i18next.createInstance();

interface InitOptions {
  /** Development builds log and report missing keys to the server for translators. */
  development?: boolean;
}

export function initI18n({ development = import.meta.env.DEV }: InitOptions = {}) {
  return i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...languages],
      fallbackLng: fallbackLanguage,
      nonExplicitSupportedLngs: false,
      load: "languageOnly",
      ns: [...namespaces],
      defaultNS: "common",
      detection: detectionOptions,
      backend: { loadPath: "/locales/{{lng}}/{{ns}}.json", addPath: "/locales/add/{{lng}}/{{ns}}" },
      saveMissing: development,
      debug: development,
      // React already escapes what it renders.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}
