import type { BankIdErrorReason } from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";
import { reasonOfAuditReason } from "./api-errors.ts";

/** The audit reasons of KPI ID's own checks (service.ts, person.ts, complete-sign-in.ts) a person can act on. */
const byAuditReason: Record<string, BankIdErrorReason> = {
  "bankid.no_match": "no_account",
  "bankid.not_identified": "not_identified",
  "user.disabled": "account_disabled",
  "user.unknown": "no_account",
  "bankid.no_pending_sign_in": "expired",
  "bankid.state_mismatch": "expired",
  "bankid.wrong_member": "invalid_answer",
  "bankid.envelope_invalid": "invalid_answer",
  "bankid.state_not_ok": "invalid_answer",
  "bankid.malformed_answer": "invalid_answer",
  "bankid.unreachable": "unavailable",
  "bankid.banks_unreachable": "unavailable",
  "bankid.bank_unavailable": "unavailable",
  "guest.identity_linked": "identity_linked",
};

/** Why a BankID sign-in failed, as the page's `bankid_auth_error` says it. */
export function bankIdErrorReason(error: unknown): BankIdErrorReason {
  if (!(error instanceof AppError)) return "failed";
  if (error.code === "auth.too_many_attempts") return "too_many_attempts";
  if (error.code === "request.rate_limited") return "busy";
  if (error.code === "bankid.not_configured" || error.code === "bankid.unavailable") return "unavailable";
  const reason = error.reason ?? "";
  if (reason.startsWith("bankid.envelope_")) return "invalid_answer";
  return byAuditReason[reason] ?? reasonOfAuditReason(reason) ?? "failed";
}
