import { type ErrorCode, errorStatus } from "@kpi-id/contracts";

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * An error the client caused or may see. The code is stable and is the i18n
 * key of the message; the HTTP status comes from the one table in contracts.
 */
export class AppError extends Error {
  override name = "AppError";
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(code, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export class InvalidCredentialsError extends AppError {
  override name = "InvalidCredentialsError";
  constructor() {
    super("auth.invalid_credentials");
  }
}

export class NotAuthenticatedError extends AppError {
  override name = "NotAuthenticatedError";
  constructor() {
    super("auth.not_authenticated");
  }
}

export class GrantInvalidError extends AppError {
  override name = "GrantInvalidError";
  constructor() {
    super("auth.grant_invalid");
  }
}

/** One answer for every failed ticket exchange, so a caller learns nothing about which part was wrong. */
export class TicketInvalidError extends AppError {
  override name = "TicketInvalidError";
  constructor() {
    super("ticket.invalid");
  }
}

export class CsrfRejectedError extends AppError {
  override name = "CsrfRejectedError";
  constructor() {
    super("request.csrf_rejected");
  }
}

export class TooManyAttemptsError extends AppError {
  override name = "TooManyAttemptsError";
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("auth.too_many_attempts", { headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class DatabaseUnavailableError extends AppError {
  override name = "DatabaseUnavailableError";
  constructor(cause?: unknown) {
    super("service.database_unavailable", { headers: { "retry-after": "5" }, cause });
  }
}
