import type { Db } from "../../platform/db/schema.ts";
import { deleteForgottenCounters } from "../../platform/throttle/prune.ts";

export interface PruneCounts {
  sessions: number;
  loginGrants: number;
  throttleCounters: number;
}

const counted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/**
 * Deletes sessions and grants past their expiry, and throttle counters nothing refers to any more (each table by
 * its owner: the counters by platform/throttle; the tickets are model/tickets' own, pruned beside this).
 */
export async function pruneExpired(db: Db, now: Date): Promise<PruneCounts> {
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) => eb.or([eb("idle_expires_at", "<=", now), eb("absolute_expires_at", "<=", now)]))
    .executeTakeFirst();
  const loginGrants = await db.deleteFrom("login_grants").where("expires_at", "<=", now).executeTakeFirst();
  const throttleCounters = await deleteForgottenCounters(db, now);
  return { sessions: counted(sessions), loginGrants: counted(loginGrants), throttleCounters };
}

// Scheduled by maintenance/cleanup.ts, one instance at a time under an advisory lock.
