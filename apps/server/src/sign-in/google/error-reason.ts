import type { GoogleErrorReason } from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";

/** The audit reasons (google/person.ts, google/service.ts, session/complete-sign-in.ts) a person can act on. */
const byAuditReason: Record<string, GoogleErrorReason> = {
  "google.no_match": "no_account",
  "google.outside_domain": "outside_domain",
  "google.email_ambiguous": "ambiguous_account",
  "google.no_email": "email_unverified",
  "google.email_unverified": "email_unverified",
  "user.disabled": "account_disabled",
  "google.linked_elsewhere": "linked_elsewhere",
  "google.link_session_ended": "expired",
  "user.unknown": "no_account",
  "google.no_pending_sign_in": "expired",
  "google.state_mismatch": "expired",
  "google.unreachable": "unavailable",
};

/** Why a Google sign-in failed, as the login page's `google_auth_error` says it. */
export function googleErrorReason(error: unknown): GoogleErrorReason {
  if (!(error instanceof AppError)) return "failed";
  if (error.code === "auth.too_many_attempts") return "too_many_attempts";
  if (error.code === "google.not_configured") return "unavailable";
  return (error.reason && byAuditReason[error.reason]) || "failed";
}
