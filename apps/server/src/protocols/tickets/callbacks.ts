import type { ApplicationRow } from "../../platform/db/schema.ts";

/** Every ticket callback the application registered; the first is used when a sign-in link names none. */
export function registeredCallbacks(application: Pick<ApplicationRow, "callback_url" | "extra_callback_urls">) {
  return [application.callback_url, ...application.extra_callback_urls];
}

/**
 * The callback a sign-in goes back to: the one redirectUri names, compared exactly (no prefix, no
 * normalising, so no open redirect), or the first registered when it names none. undefined: refused.
 */
export function chosenCallback(
  application: Pick<ApplicationRow, "callback_url" | "extra_callback_urls">,
  redirectUri: string | undefined,
): string | undefined {
  if (redirectUri === undefined) return application.callback_url;
  return registeredCallbacks(application).find((callback) => callback === redirectUri);
}

/** The callback with ticketId (and the application's own state, unchanged) added, keeping its query. */
export function callbackWithTicket(callbackUrl: string, ticket: string, state?: string): string {
  const separator = !callbackUrl.includes("?") ? "?" : /[?&]$/.test(callbackUrl) ? "" : "&";
  const added = new URLSearchParams({ ticketId: ticket });
  if (state !== undefined) added.set("state", state);
  return `${callbackUrl}${separator}${added}`;
}
