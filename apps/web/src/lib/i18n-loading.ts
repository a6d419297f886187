import { chooseLanguage, requestedLanguage } from "@kpi-id/contracts";
import type { BackendModule, LanguageDetectorModule, ReadCallback } from "i18next";

// What i18next-http-backend and i18next-browser-languagedetector did here, in the few lines this app
// needs: the first screen carries both libraries' weight before it can show (docs/performance.md).

/** Where the person's choice is remembered (the server reads the same cookie). */
export const choiceCookie = "i18next";
export const choiceStorageKey = "i18nextLng";

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

function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage refused: the cookie still remembers the choice
  }
}

/**
 * The server's language order (contracts' chooseLanguage) in the browser: the first path segment,
 * then the person's remembered choice (the i18next cookie, then local storage), then Ukrainian.
 */
export function detectLanguage(): string {
  // Nearly every page names its language in the path. The remembered choice is read only when the path does
  // not: a cookie read and a first local-storage access are synchronous calls out of the renderer, on the
  // start-up task that shows the first screen.
  return (
    requestedLanguage(window.location.pathname.split("/")[1]) ??
    chooseLanguage({ chosen: readCookie(choiceCookie) ?? readStorage(choiceStorageKey) })
  );
}

/** Detects the language and remembers it in the cookie (for this browser session) and local storage. */
export const languageDetector: LanguageDetectorModule = {
  type: "languageDetector",
  detect: detectLanguage,
  cacheUserLanguage(language: string) {
    // biome-ignore lint/suspicious/noDocumentCookie: a plain session cookie; the Cookie Store API is not in every browser the app serves
    document.cookie = `${choiceCookie}=${encodeURIComponent(language)}; path=/; SameSite=Lax`;
    writeStorage(choiceStorageKey, language);
  },
};

function failure(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Loads /locales/{language}/{namespace}.json for what the page did not bring; reports missing keys in development. */
export const localeBackend: BackendModule = {
  type: "backend",
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    const path = `/locales/${language}/${namespace}.json`;
    fetch(path)
      .then(async (response) => {
        // i18next tries again after a server or network failure, not after a missing file.
        if (!response.ok) return callback(new Error(`${path}: ${response.status}`), response.status >= 500);
        callback(null, await response.json());
      })
      .catch((error: unknown) => callback(failure(error), true));
  },
  create(languages: readonly string[], namespace: string, key: string, fallbackValue: string) {
    for (const language of languages) {
      void fetch(`/locales/add/${language}/${namespace}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ [key]: fallbackValue }),
      }).catch(() => undefined); // development help only
    }
  },
};
