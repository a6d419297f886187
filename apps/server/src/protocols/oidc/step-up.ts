import type Provider from "oidc-provider";
import {
  asksForMultiFactor,
  meetsRequirement,
  multiFactorRequired,
  type SessionStrength,
} from "../../model/sessions/strength.ts";
import type { ApplicationRow, User } from "../../platform/db/schema.ts";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

/** The values of `acr_values` (space-separated, OIDC Core §3.1.2.1); none when absent. */
function acrValuesOf(acrValues: unknown): string[] {
  return typeof acrValues === "string" ? acrValues.split(" ") : [];
}

/** Whether the request's `acr_values` ask for REFEDS MFA. */
export function acrValuesAskMultiFactor(acrValues: unknown): boolean {
  return asksForMultiFactor(acrValuesOf(acrValues));
}

/**
 * The application or the person requires MFA (their operator said so), or this request asks for it with
 * `acr_values`, and the session has not proven more than one factor (the judge: strength.ts).
 */
export function needsStepUp(
  session: SessionStrength & { user: Pick<User, "require_mfa"> },
  application: Pick<ApplicationRow, "require_mfa"> | undefined,
  acrValues: unknown,
): boolean {
  const asked = acrValuesAskMultiFactor(acrValues);
  return !meetsRequirement(session, { multiFactor: multiFactorRequired(session.user, application, asked) });
}

/** For the interaction routes: the request's own acr_values. */
export function interactionAcrValues(interaction: Interaction): unknown {
  return interaction.params.acr_values;
}
