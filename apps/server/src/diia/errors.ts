import { AppError } from "../errors.ts";

export class DiiaFailedError extends AppError {
  override name = "DiiaFailedError";
  constructor(cause?: unknown) {
    super("diia.failed", { cause });
  }
}

export class DiiaRequestNotFoundError extends AppError {
  override name = "DiiaRequestNotFoundError";
  constructor() {
    super("diia.request_not_found");
  }
}

export class DiiaNotConfiguredError extends AppError {
  override name = "DiiaNotConfiguredError";
  constructor() {
    super("diia.not_configured");
  }
}

export class DiiaUnavailableError extends AppError {
  override name = "DiiaUnavailableError";
  constructor(cause?: unknown) {
    super("diia.unavailable", { cause });
  }
}
