import { isPagePath } from "@kpi-id/contracts";
import { isLanguage, type Language } from "./languages.ts";

/** Prefixes an app path with the language: ("en", "/apps") → "/en/apps". */
export function localizePath(language: Language, path: string): string {
  const clean = path.startsWith("/") ? path : `/${path}`;
  return clean === "/" ? `/${language}/` : `/${language}${clean}`;
}

/** Keeps only the named query parameters of a search string ("?a=1&b=2", ["a"]) → "?a=1". */
export function keepParams(search: string, names: readonly string[]): string {
  const source = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of names) {
    const value = source.get(name);
    if (value !== null && value !== "") kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** A localized link that carries over the chosen query parameters of the current URL. */
export function localizedHref(language: Language, path: string, search = "", keep: readonly string[] = []): string {
  return `${localizePath(language, path)}${keepParams(search, keep)}`;
}

/**
 * The redirect helper: a path that lacks a language segment gets the current
 * language in front, and the query string comes along unchanged.
 */
export function withLanguage(language: Language, pathname: string, search = ""): string {
  const first = pathname.split("/")[1];
  const path = isLanguage(first) ? pathname : localizePath(language, pathname);
  return `${path}${search}`;
}

/** The same page in the other language: "/uk/faq?x=1" → "/en/faq?x=1". */
export function swapLanguage(pathname: string, search: string, language: Language): string {
  const parts = pathname.split("/");
  if (isLanguage(parts[1])) parts[1] = language;
  else parts.splice(1, 0, language);
  const path = parts.join("/") || "/";
  return `${path}${search}`;
}

/** The query parameter that brings a person back to the page they were opening after they sign in. */
export const RETURN_TO_PARAM = "returnTo";

// Only this app's pages a signed-in person opens (issue 60: any page, not only the console's), never a sign-in
// page itself, and not the apps list (where every sign-in ends anyway, so its address stays plain /{lang}/): the parameter comes from the URL, so anything wider would be an open redirect or a loop.
const returnablePath = /^\/(uk|en)\/(admin|developers|account|button-wizard|faq)(\/|$)/;

/** The page a sign-in should return to, or undefined when the URL names none (or a foreign one). */
export function returnPathFrom(search: string): string | undefined {
  const value = new URLSearchParams(search).get(RETURN_TO_PARAM);
  return value !== null && returnablePath.test(value) && isPagePath(value) ? value : undefined;
}

/** The sign-in page that brings the person back to this path afterwards (the path alone when it is no page to return to). */
export function signInReturningTo(language: Language, pathname: string): string {
  const back = new URLSearchParams({ [RETURN_TO_PARAM]: pathname });
  return returnPathFrom(`?${back}`) ? `${localizePath(language, "/")}?${back}` : localizePath(language, "/");
}
