import { defaultLanguage, isLanguage, type Language } from "./messages.ts";

/** One of ours from a tag such as "en-US" or "uk", by its base language. */
export function baseLanguage(tag: string | null | undefined): Language | undefined {
  const base = tag?.trim().toLowerCase().split("-")[0];
  return isLanguage(base) ? base : undefined;
}

/** The first of ours in an Accept-Language header, by quality then order. */
export function languageFromAcceptHeader(header: string | null | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const quality = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const q = quality ? Number.parseFloat(quality.slice(2)) : 1;
      return { language: baseLanguage(tag), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.find((entry) => entry.language !== undefined)?.language;
}

export interface LanguageSources {
  /** What the request itself names: the URL's language segment, OpenID Connect ui_locales (space-separated). */
  requested?: string | null;
  /** The person's choice in the web app, remembered in its `i18next` cookie. */
  chosen?: string | null;
  /** The browser's languages: an Accept-Language header (navigator.languages in the web app). */
  accepted?: string | null;
}

/**
 * The one order in which every page, answer and message picks its language, on the server and in
 * the web app alike: what the request names, then the person's choice, then the browser's, then Ukrainian.
 */
export function chooseLanguage({ requested, chosen, accepted }: LanguageSources): Language {
  return requestedLanguage(requested) ?? baseLanguage(chosen) ?? languageFromAcceptHeader(accepted) ?? defaultLanguage;
}

/** The first of ours that the request itself names (see `LanguageSources.requested`), if it names one. */
export function requestedLanguage(requested: string | null | undefined): Language | undefined {
  return requested
    ?.split(/[\s,]+/)
    .map(baseLanguage)
    .find((language) => language !== undefined);
}
