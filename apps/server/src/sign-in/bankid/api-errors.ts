import type { BankIdErrorReason } from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";

// The OAuth-style errors BankID NBU answers (research/bankid-nbu.md §4, the values Diia's
// production code handles), on the callback, the token call or the resource call.

export const bankIdApiErrors = [
  "invalid_request",
  "invalid_cert",
  "invalid_data",
  "unauthorized_client",
  "invalid_token",
  "invalid_grant",
  "access_denied",
  "temporarily_unavailable",
] as const;
export type BankIdApiError = (typeof bankIdApiErrors)[number];

/** What the person is told for each (contract's bankid_auth_error); anything unlisted is `failed`. */
const reasonOfApiError: Record<BankIdApiError, BankIdErrorReason> = {
  access_denied: "cancelled",
  invalid_grant: "expired",
  invalid_token: "expired",
  invalid_cert: "invalid_answer",
  temporarily_unavailable: "unavailable",
  invalid_request: "failed",
  invalid_data: "failed",
  unauthorized_client: "failed",
};

function isKnown(error: string): error is BankIdApiError {
  return (bankIdApiErrors as readonly string[]).includes(error);
}

/** The audit reason of an API error: `bankid.<error>` for a documented one, else `bankid.other_error`. */
export function auditReasonOfApiError(error: string): string {
  return isKnown(error) ? `bankid.${error}` : "bankid.other_error";
}

/** An error BankID answered as the AppError the routes turn into a reason (error-reason.ts). */
export function failureForApiError(error: string): AppError {
  const reason = auditReasonOfApiError(error);
  if (error === "temporarily_unavailable") return new AppError("bankid.unavailable", { reason });
  return new AppError("bankid.failed", { reason });
}

/** The contract's reason for an audit reason that names an API error. */
export function reasonOfAuditReason(auditReason: string): BankIdErrorReason | undefined {
  const error = auditReason.startsWith("bankid.") ? auditReason.slice("bankid.".length) : "";
  return isKnown(error) ? reasonOfApiError[error] : undefined;
}
