/**
 * BankID's failure reasons and purposes, without zod: the login page (in the web app's first load) reads
 * them, and zod would double that load. The schemas are in bankid.ts.
 */

/** The query parameter that carries why a BankID sign-in came back without a session. */
export const BANKID_ERROR_PARAM = "bankid_auth_error";

/**
 * Why a BankID sign-in ended without a session: one translated message each (the login page's
 * auth:login.bankIdError.refused.{reason}, Forgot password's password:forgot.bankIdError.{reason}).
 */
export const bankIdErrorReasons = [
  /** The person cancelled at the bank or refused consent (`access_denied`). */
  "cancelled",
  /** The university knows nobody with this tax id or document. */
  "no_account",
  /** The bank sent no usable tax id and no document that matches one person. */
  "not_identified",
  /** The person's account is disabled. */
  "account_disabled",
  /** The code or state expired or was already used (`invalid_grant`, a replayed state). */
  "expired",
  /** The bank's answer failed a check: signature, certificate chain, recipient, memberId (`invalid_cert`). */
  "invalid_answer",
  /** BankID or the bank is temporarily unavailable (`temporarily_unavailable`, network, 5xx). */
  "unavailable",
  /** Too many attempts from this browser or for this person. */
  "too_many_attempts",
  /** KPI ID had too many bank answers to open at once (its line was full, 429 `request.rate_limited`). */
  "busy",
  /** A guest accepting an invitation is already someone else in the university (their tax id is on another person). */
  "identity_linked",
  /** Anything else. */
  "failed",
] as const;
export type BankIdErrorReason = (typeof bankIdErrorReasons)[number];

export function isBankIdErrorReason(value: unknown): value is BankIdErrorReason {
  return typeof value === "string" && (bankIdErrorReasons as readonly string[]).includes(value);
}

/** What the sign-in is for: signing in, or proving who you are to set a new password. */
export const bankIdPurposes = ["signin", "recovery"] as const;
export type BankIdPurpose = (typeof bankIdPurposes)[number];
