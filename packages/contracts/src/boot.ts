import type { CurrentUser, PublicSettings } from "./api.ts";
import type { Language } from "./messages.ts";

/** The translation files (public/locales/{lng}/{ns}.json) the web app loads at start. */
export const startNamespaces = ["common", "auth", "apps", "pages", "errors"] as const;
export type StartNamespace = (typeof startNamespaces)[number];

/**
 * What the server writes into the page it answers with (a JSON script element of this id, never run):
 * the settings and the first screen's translations arrive with the HTML instead of after the JavaScript.
 */
export const bootDataElementId = "kpi-id-boot";

export type StartTranslations = Partial<Record<Language, Record<StartNamespace, Record<string, unknown>>>>;

export interface BootData {
  settings: PublicSettings;
  translations: StartTranslations;
  /**
   * True when the request for the page carried no session cookie: nobody is signed in, so the first
   * screen does not ask GET /user (whose 401 an anonymous visitor would otherwise meet on every visit).
   * False says only that a cookie came; /user decides whether it still names a session.
   */
  signedOut: boolean;
  /**
   * The signed-in person, as GET /user answers in the page's language, when the cookie named a live
   * session: a signed-in screen renders without waiting for that call. Absent when the server could not
   * tell (the app then asks /user itself); a cookie naming no live session makes the page signed out.
   */
  user?: CurrentUser;
}
