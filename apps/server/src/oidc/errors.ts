import { AppError } from "../errors.ts";

/** The interaction cookie is missing, or the interaction is unknown or expired. */
export class OidcInteractionNotFoundError extends AppError {
  override name = "OidcInteractionNotFoundError";
  constructor(cause?: unknown) {
    super("oidc.interaction_not_found", { cause });
  }
}
