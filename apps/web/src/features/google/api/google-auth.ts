import { GOOGLE_ERROR_PARAM, type GoogleErrorReason, type Language } from "@kpi-id/contracts";
import { localizePath } from "@/lib/paths.ts";

export class CodeNotSpecifiedError extends Error {
  constructor() {
    super("Code is not specified");
    this.name = "CodeNotSpecifiedError";
  }
}

/**
 * Where the browser hands Google's answer to the server: GET /google/auth with code and state, as a
 * page load. The server finishes the sign-in, sets the session cookie and redirects onwards itself.
 */
export function googleCallbackUrl(search: URLSearchParams): string {
  const code = search.get("code");
  if (!code) throw new CodeNotSpecifiedError();
  return `/google/auth?${new URLSearchParams({ code, state: search.get("state") ?? "" })}`;
}

/** The login page with the Google alert, for an answer that brought no code (cancelled at Google, or broken). */
export function googleErrorUrl(language: Language, search: URLSearchParams): string {
  const reason: GoogleErrorReason = search.get("error") === "access_denied" ? "cancelled" : "failed";
  return `${localizePath(language, "/")}?${new URLSearchParams({ [GOOGLE_ERROR_PARAM]: reason })}`;
}
