/** The login page's query parameter that carries why a Google sign-in came back without a session. */
export const GOOGLE_ERROR_PARAM = "google_auth_error";

/**
 * Why a Google sign-in ended on the login page: the value of `google_auth_error`, one message each.
 * Stable: pages and links may carry them. (`true`, the spec's original value, means `failed`.)
 */
export const googleErrorReasons = [
  "cancelled",
  "no_account",
  "outside_domain",
  "ambiguous_account",
  "email_unverified",
  "account_disabled",
  "linked_elsewhere",
  "expired",
  "too_many_attempts",
  "unavailable",
  "failed",
] as const;
export type GoogleErrorReason = (typeof googleErrorReasons)[number];

export function isGoogleErrorReason(value: unknown): value is GoogleErrorReason {
  return typeof value === "string" && (googleErrorReasons as readonly string[]).includes(value);
}
