import { type ErrorCode, errorStatus } from "@kpi-id/contracts";

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** How long the client should wait (429, 503): sent as Retry-After, whole seconds, at least one. */
  retryAfterSeconds?: number;
  /** Why, for the audit row only; the client learns the code and nothing more. */
  reason?: string;
  cause?: unknown;
}

/**
 * The one error the service answers with. The code is stable and is the i18n key of the message;
 * the HTTP status comes from the one table in contracts: `throw new AppError("ticket.invalid")`.
 */
export class AppError extends Error {
  override name = "AppError";
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly reason?: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(code, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.reason = options.reason;
    this.headers = retryAfterHeader(options.retryAfterSeconds);
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

function retryAfterHeader(seconds: number | undefined): Record<string, string> {
  return seconds === undefined ? {} : { "retry-after": String(Math.max(1, Math.ceil(seconds))) };
}

/** True for an AppError with this code (for the few places that treat one code apart). */
export function hasCode(error: unknown, code: ErrorCode): error is AppError {
  return error instanceof AppError && error.code === code;
}
