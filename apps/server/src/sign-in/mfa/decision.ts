import type { FastifyRequest } from "fastify";
import { totpState } from "../../model/mfa/totp.ts";
import { hasPasskey } from "../../model/passkeys/credentials.ts";
import { type SignInStrength, withRememberedBrowser } from "../../model/sessions/strength.ts";
import type { User } from "../../platform/db/schema.ts";
import { isRememberedBrowser } from "./remembered-browser.ts";

export interface SecondFactorDecision {
  /** What the password proved so far. */
  amr: SignInStrength;
  /** The person must give their code before the grant is exchanged. */
  secondFactor?: "totp";
  /** The operator requires a second factor the person has not set up. */
  setUpSecondFactor?: boolean;
}

/**
 * After a correct password (or a Google sign-in, one factor too: `firstFactor` "google"): a person with a
 * confirmed authenticator is asked for a code, unless this browser proved it within 30 days (then the sign-in
 * counts as two factors: the first one and the browser's signed proof, `swk`).
 */
export async function secondFactorDecision(
  request: FastifyRequest,
  user: User,
  firstFactor: "pwd" | "google" = "pwd",
): Promise<SecondFactorDecision> {
  const totp = await totpState(request.server.db, user.id);
  const confirmedAt = totp?.confirmedAt;
  if (!confirmedAt) return { amr: [firstFactor], setUpSecondFactor: user.require_mfa };
  if (isRememberedBrowser(request, user.id, confirmedAt)) return { amr: withRememberedBrowser(firstFactor) };
  return { amr: [firstFactor], secondFactor: "totp" };
}

/**
 * Whether the person can make a multi-factor sign-in at all: with their authenticator app, a passkey
 * (the sign-in screen offers it), or Diia (strong on its own) when KPI ID knows their tax id.
 * Otherwise asking again only loops.
 */
export async function canStepUp(request: FastifyRequest, user: User): Promise<boolean> {
  if (user.tax_id) return true;
  const { db } = request.server;
  if ((await totpState(db, user.id))?.confirmedAt) return true;
  return hasPasskey(db, user.id);
}
