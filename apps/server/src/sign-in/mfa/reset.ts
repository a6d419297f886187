import { removeRecoveryCodes } from "../../model/mfa/recovery-codes.ts";
import { removeTotp } from "../../model/mfa/totp.ts";
import { removeAllPasskeys } from "../../model/passkeys/credentials.ts";
import { signOutEverywhere } from "../../model/users/queries.ts";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";

export interface SecondFactorReset {
  /** Whether an authenticator app was set up (recovery codes go either way). */
  hadAuthenticator: boolean;
  passkeysRemoved: number;
  sessionsEnded: number;
}

type RecordEvent = (event: Omit<AuditEvent, "ip" | "userAgent" | "occurredAt">) => Promise<unknown>;

/**
 * Ends the person's sessions and sends their applications back-channel logout; how many sessions ended.
 * Only a running server has the OpenID Connect provider to sign logout tokens with (the console passes
 * `endAllSessionsOf`); the CLI has none, and its reset revokes the tokens without telling.
 */
type SignOutOfApplications = (userId: string) => Promise<number>;

/**
 * For a person who lost their phone and recovery codes (`user reset-mfa` and the console's person
 * screen): the authenticator app, recovery codes and passkeys go (remembered browsers with them: they
 * are bound to the factor), and every session ends, with the applications' OpenID Connect tokens, as
 * disabling ends them. Mature IdPs (Okta's "reset factors", Entra's "require re-register MFA") end the
 * sessions too: a reset often follows a stolen phone, and a session the old factor proved must not
 * outlive it; the person signs in again and sets a factor up afresh. `record` writes the two audit rows
 * (the console's names the operator).
 */
export async function resetSecondFactor(
  db: Db,
  userId: string,
  record: RecordEvent,
  signOutOfApplications?: SignOutOfApplications,
): Promise<SecondFactorReset> {
  const hadAuthenticator = await removeTotp(db, userId);
  await removeRecoveryCodes(db, userId);
  const passkeysRemoved = await removeAllPasskeys(db, userId);
  await record({
    type: "second_factor_changed",
    result: "success",
    userId,
    reason: "operator.reset",
    details: { passkeysRemoved },
  });
  // Back-channel logout first, while the sessions it finds the applications by still exist; then every
  // token, unexchanged grant and remaining session goes, as `user disable` does.
  const told = signOutOfApplications ? await signOutOfApplications(userId) : 0;
  const sessionsEnded = told + (await signOutEverywhere(db, userId));
  await record({ type: "session_end", result: "success", userId, reason: "operator.reset_mfa" });
  return { hadAuthenticator, passkeysRemoved, sessionsEnded };
}
