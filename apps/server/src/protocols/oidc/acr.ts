import { isMultiFactor, type SessionStrength } from "../../model/sessions/strength.ts";

/**
 * Authentication context classes an application may ask for (`acr_values`) and that the
 * ID token's `acr` reports: the REFEDS profiles campus services already use. A
 * multi-factor session (a second factor, a passkey, Diia) satisfies MFA; any session SFA.
 */
export const refedsSfa = "https://refeds.org/profile/sfa";
export const refedsMfa = "https://refeds.org/profile/mfa";

/** The `acr` a session achieved. */
export function sessionAcr(session: SessionStrength): string {
  return isMultiFactor(session) ? refedsMfa : refedsSfa;
}
