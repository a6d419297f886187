import { z } from "zod";
import { text } from "./text.ts";

/**
 * Sign-in with BankID NBU, as the web app and the server share it.
 *
 * The flow: the login page (or "Forgot password") sends the browser to `GET /api/bankid/redirect`
 * (query {@link BankIdRedirectQuery}), which answers 302 to the configured BankID host's authorize URL with
 * `redirect_uri = {PUBLIC_URL}/{lang}/bankid-auth`. BankID returns the browser to that page; the page hands
 * `code` and `state` to the server as a page load of `GET /bankid/auth?code=…&state=…`, which finishes the
 * sign-in (token, resource, envelope, match), sets the session and redirects onwards itself. A sign-in that
 * ends without a session lands on `/{lang}/?bankid_auth_error={reason}` (a recovery attempt on
 * `/{lang}/forgot-password?via=bankid&bankid_auth_error={reason}`), where the page shows the reason's message.
 */

/** The query parameter that carries why a BankID sign-in came back without a session. */
export const BANKID_ERROR_PARAM = "bankid_auth_error";

/** Why a BankID sign-in ended without a session: one translated message each (auth:bankid.errors.{reason}). */
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

/** `GET /api/bankid/redirect` query. `bank` preselects a bank (an id from `GET /api/banks`). */
export const bankIdRedirectQuerySchema = z.object({
  bank: text().max(64).optional(),
  purpose: z.enum(bankIdPurposes).optional(),
  /** The application the sign-in continues to, as on the Google redirect. */
  appId: text().max(200).optional(),
  state: text().max(1024).optional(),
  redirectUri: text().max(2048).optional(),
});
export type BankIdRedirectQuery = z.infer<typeof bankIdRedirectQuerySchema>;

/** One bank a person may pick (`GET /api/banks`: only banks BankID reports as workable). */
export const bankSummarySchema = z.object({
  id: text(),
  name: text(),
  /** An absolute https (or sandbox http) URL of the bank's logo, or absent. */
  logoUrl: text().optional(),
});
export type BankSummary = z.infer<typeof bankSummarySchema>;

export const banksResponseSchema = z.object({ banks: z.array(bankSummarySchema) });
export type BanksResponse = z.infer<typeof banksResponseSchema>;
