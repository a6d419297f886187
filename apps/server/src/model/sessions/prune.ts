import type { Db } from "../../platform/db/schema.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";

export interface PruneCounts {
  sessions: number;
  loginGrants: number;
  tickets: number;
  throttleCounters: number;
}

const counted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

// A counter without a failure this long has been forgotten by the policy anyway (see throttle-policy.ts);
// one at zero failures (successes gave back every attempt) holds nothing.
const throttleForgetMs = Math.max(...Object.values(throttlePolicy).map((rule) => rule.forgetAfterSeconds)) * 1000;

/** Deletes sessions, grants and tickets past their expiry, and throttle counters nothing refers to any more. */
export async function pruneExpired(db: Db, now: Date): Promise<PruneCounts> {
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) => eb.or([eb("idle_expires_at", "<=", now), eb("absolute_expires_at", "<=", now)]))
    .executeTakeFirst();
  const loginGrants = await db.deleteFrom("login_grants").where("expires_at", "<=", now).executeTakeFirst();
  const tickets = await db.deleteFrom("tickets").where("expires_at", "<=", now).executeTakeFirst();
  const throttleCounters = await db
    .deleteFrom("throttle_counters")
    .where((eb) =>
      eb.or([eb("failures", "=", 0), eb("last_failure_at", "<", new Date(now.getTime() - throttleForgetMs))]),
    )
    .where((eb) => eb.or([eb("blocked_until", "is", null), eb("blocked_until", "<=", now)]))
    .executeTakeFirst();
  return {
    sessions: counted(sessions),
    loginGrants: counted(loginGrants),
    tickets: counted(tickets),
    throttleCounters: counted(throttleCounters),
  };
}

// Scheduled by maintenance/cleanup.ts, one instance at a time under an advisory lock.
