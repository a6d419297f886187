import { chooseLanguage, defaultLanguage, languages, startNamespaces } from "@kpi-id/contracts";
import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import HttpBackend from "i18next-http-backend";
import { initReactI18next } from "react-i18next";
import { bootData } from "./boot-data.ts";

export const namespaces = startNamespaces;

/** Where the person's choice is remembered (the server reads the same cookie). */
const choiceCookie = "i18next";
const choiceStorageKey = "i18nextLng";

function readCookie(name: string): string | undefined {
  const pair = document.cookie.split("; ").find((entry) => entry.startsWith(`${name}=`));
  return pair === undefined ? undefined : decodeURIComponent(pair.slice(name.length + 1));
}

function readStorage(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined; // storage refused (private mode, blocked by policy)
  }
}

/**
 * The server's language order (contracts' chooseLanguage) in the browser: the first path segment,
 * then the person's remembered choice (the i18next cookie, then local storage), then Ukrainian.
 */
export const kpiIdDetector = {
  name: "kpiId",
  lookup: () =>
    chooseLanguage({
      requested: window.location.pathname.split("/")[1],
      chosen: readCookie(choiceCookie) ?? readStorage(choiceStorageKey),
    }),
};

/** Where the language comes from, in order, and where the choice is remembered. */
export const detectionOptions = {
  order: [kpiIdDetector.name],
  lookupCookie: choiceCookie,
  lookupLocalStorage: choiceStorageKey,
  caches: ["cookie", "localStorage"],
  cookieOptions: { path: "/", sameSite: "lax" as const },
};

export const i18n = i18next.createInstance();

interface InitOptions {
  /** Development builds log and report missing keys to the server for translators. */
  development?: boolean;
}

export function initI18n({ development = import.meta.env.DEV }: InitOptions = {}) {
  const detector = new LanguageDetector();
  detector.addDetector(kpiIdDetector);
  return i18n
    .use(HttpBackend)
    .use(detector)
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
      detection: detectionOptions,
      backend: { loadPath: "/locales/{{lng}}/{{ns}}.json", addPath: "/locales/add/{{lng}}/{{ns}}" },
      saveMissing: development,
      debug: development,
      // React already escapes what it renders.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}
