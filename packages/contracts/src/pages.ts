import { isLanguage } from "./messages.ts";

/**
 * The web app's pages under `/{lang}/` (the index page is ""). The server answers
 * any other path with HTTP 404 (the app still renders its not-found screen or
 * the spec's redirect), so crawlers, monitors and people's bookmarks learn that a
 * page does not exist. The router's own list is checked against this one.
 */
export const languagePages = [
  "",
  "diia",
  "bankid-auth",
  "institution",
  "faq",
  "consent",
  "device",
  "auth-success",
  "forgot-password",
  "reset-password",
  "guest",
  "button-wizard",
  "apps",
  "account",
  "developers",
  "admin",
  "privacy-policy",
  "terms-of-use",
] as const;

/** Pages outside a language prefix: the language redirect and the spec's Google callback page. */
export const rootPages = ["/", "/google-auth", "/auth-success"] as const;

function adminScreen(rest: string[]): boolean {
  if (rest.length === 0) return true;
  if (rest.length === 1)
    return ["applications", "reviews", "import", "audit", "keys", "service", "ldap"].includes(rest[0] ?? "");
  return (
    rest.length === 2 && (rest[0] === "people" || rest[0] === "applications") && /^[0-9a-f-]{36}$/i.test(rest[1] ?? "")
  );
}

/** Whether a request path (without its query) is one of the web app's pages. */
export function isPagePath(path: string): boolean {
  if ((rootPages as readonly string[]).includes(path)) return true;
  const segments = path.split("/").slice(1);
  if (segments.length > 1 && segments.at(-1) === "") segments.pop();
  const [first = "", page = "", ...rest] = segments;
  // The console's own screens: /{lang}/admin/applications, …/reviews, …/import, …/audit, …/keys, …/service,
  // /{lang}/admin/people/{id}, /{lang}/admin/applications/{id}.
  if (isLanguage(first) && page === "admin") return adminScreen(rest);
  // One of the person's applications on the developers' page: /{lang}/developers/{id}.
  if (isLanguage(first) && page === "developers" && rest.length === 1) return /^[0-9a-f-]{36}$/i.test(rest[0] ?? "");
  if (rest.length > 0) return false;
  // A page named without a language gets one from the app (`/faq` → `/uk/faq`).
  if (!isLanguage(first))
    return segments.length === 1 && first !== "" && (languagePages as readonly string[]).includes(first);
  return (languagePages as readonly string[]).includes(page);
}

/** Where the provider's login and consent interaction lives: /{oidcInteractionPath}/{uid}. */
export const oidcInteractionPath = "/api/oidc/interaction";

/** The file the web build writes beside index.html: what each page loads lazily, for the server to preload. */
export const routePreloadsFile = "route-preloads.json";

/**
 * Per page under `/{lang}/` ("" is the login page): the built files (paths under the web root, e.g.
 * `assets/apps-1a2b.js`) its lazy module needs beyond the first load, and whether the page is only for
 * a signed-in person (the server then preloads it only when the request carries a session cookie).
 */
export type RoutePreloads = Partial<Record<(typeof languagePages)[number], { scripts: string[]; signedIn: boolean }>>;
