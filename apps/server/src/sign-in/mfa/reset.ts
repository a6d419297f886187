import { removeRecoveryCodes } from "../../model/mfa/recovery-codes.ts";
import { removeTotp } from "../../model/mfa/totp.ts";
import { removeAllPasskeys } from "../../model/passkeys/credentials.ts";
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
 * Ends every session of the person (endSessions, reason `operator.reset_mfa`, which writes its audit row);
 * how many ended. The console's tells the applications (back-channel logout); the CLI has no provider to.
 */
type EndSessionsOf = (userId: string) => Promise<number>;

/**
 * For a person who lost their phone and recovery codes (`user reset-mfa` and the console's person
 * screen): the authenticator app, recovery codes and passkeys go (remembered browsers with them: they
 * are bound to the factor), and every session ends, with the applications' OpenID Connect tokens, as
 * disabling ends them. Mature IdPs (Okta's "reset factors", Entra's "require re-register MFA") end the
 * sessions too: a reset often follows a stolen phone, and a session the old factor proved must not
 * outlive it; the person signs in again and sets a factor up afresh. `record` writes the factor's audit row
 * (the console's names the operator).
 */
export async function resetSecondFactor(
  db: Db,
  userId: string,
  record: RecordEvent,
  endSessionsOf: EndSessionsOf,
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
  // Every session, token and unexchanged grant goes, as `user disable` does.
  const sessionsEnded = await endSessionsOf(userId);
  return { hadAuthenticator, passkeysRemoved, sessionsEnded };
}
