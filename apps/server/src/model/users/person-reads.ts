import { latestEventsOf } from "../../platform/audit/queries.ts";
import type { Db } from "../../platform/db/schema.ts";
import { credentialThrottleKeys, throttleCounter } from "../../platform/throttle/throttle.ts";
import { grantedApplicationIds } from "../access/applications.ts";
import { applicationsByTitle } from "../apps/listed.ts";
import { totpState } from "../mfa/totp.ts";
import { countPasskeys } from "../passkeys/credentials.ts";

// The reads behind the console's person screen (surfaces/admin/people.ts): each one statement of the area that
// owns its table (issue 76), run side by side. The person's records are model/people's (person-records.ts) and
// their open sessions model/sessions' (live.ts), which the screen asks itself: users sit below sessions.

// The person's history: sign-ins and sessions, and the changes the university's systems made to them.
const historyEventTypes = [
  "sign_in",
  "session_start",
  "oidc_sign_in",
  "logout",
  "session_end",
  "account_unlocked",
  "scim_change",
  "people_imported",
];
const historyLength = 20;

/** The applications the person was given by name, by title. */
export function applicationsOfPerson(db: Db, userId: string) {
  return applicationsByTitle(db, grantedApplicationIds(userId));
}

/** The person's latest sign-ins, sessions and changes from the audit log. */
export function historyOfPerson(db: Db, userId: string) {
  return latestEventsOf(db, userId, historyEventTypes, historyLength);
}

/** A confirmed authenticator app and the number of passkeys: what a second-factor reset removes. */
export async function secondFactorsOf(db: Db, userId: string) {
  const [totp, passkeys] = await Promise.all([totpState(db, userId), countPasskeys(db, userId)]);
  return { authenticator: Boolean(totp?.confirmedAt), passkeys };
}

/** The account's counter of strangers' failed guesses (what `user unlock` deletes). */
export async function accountThrottle(db: Db, secret: string, username: string) {
  const [account] = credentialThrottleKeys(secret, { username, address: "" });
  const row = account ? await throttleCounter(db, account) : undefined;
  return { failures: row?.failures ?? 0, lockedUntil: row?.blocked_until?.toISOString() ?? null };
}
