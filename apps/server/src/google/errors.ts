import { AppError } from "../errors.ts";

/**
 * Sign-in with Google did not produce a session. The person sees one answer
 * ("Failed to login"); `reason` says why, for the audit row only.
 */
export class GoogleFailedError extends AppError {
  override name = "GoogleFailedError";
  readonly reason: string;
  constructor(reason: string, cause?: unknown) {
    super("google.failed", { cause });
    this.reason = reason;
  }
}

/** Google sign-in is off here, or its provider cannot be reached right now. */
export class GoogleNotConfiguredError extends AppError {
  override name = "GoogleNotConfiguredError";
  constructor(cause?: unknown) {
    super("google.not_configured", { headers: { "retry-after": "30" }, cause });
  }
}
