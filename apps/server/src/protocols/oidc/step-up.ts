import type Provider from "oidc-provider";
import { isMultiFactor, type SessionStrength } from "../../model/sessions/strength.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { refedsMfa } from "./acr.ts";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

/** The acr values an application may ask for that only a multi-factor sign-in satisfies. */
const multiFactorAcrs = new Set([refedsMfa]);

/** Whether `acr_values` (space-separated, OIDC Core §3.1.2.1) asks for a multi-factor sign-in. */
export function asksForMultiFactor(acrValues: unknown): boolean {
  if (typeof acrValues !== "string") return false;
  return acrValues.split(" ").some((value) => multiFactorAcrs.has(value));
}

/**
 * The application requires MFA (its operator said so), or this request asks for it with
 * `acr_values`, and the session has not proven more than one factor.
 */
export function needsStepUp(
  session: SessionStrength,
  application: Pick<ApplicationRow, "require_mfa"> | undefined,
  acrValues: unknown,
): boolean {
  return (Boolean(application?.require_mfa) || asksForMultiFactor(acrValues)) && !isMultiFactor(session);
}

/** For the interaction routes: the request's own acr_values. */
export function interactionAcrValues(interaction: Interaction): unknown {
  return interaction.params.acr_values;
}
