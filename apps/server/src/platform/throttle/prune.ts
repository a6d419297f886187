import type { Db } from "../db/schema.ts";
import { throttlePolicy } from "./policy.ts";

// A counter without a failure this long has been forgotten by the policy anyway (see policy.ts);
// one at zero failures (successes gave back every attempt) holds nothing.
const throttleForgetMs = Math.max(...Object.values(throttlePolicy).map((rule) => rule.forgetAfterSeconds)) * 1000;

/** Deletes the counters nothing refers to any more (none blocking now); answers how many went. */
export async function deleteForgottenCounters(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("throttle_counters")
    .where((eb) =>
      eb.or([eb("failures", "=", 0), eb("last_failure_at", "<", new Date(now.getTime() - throttleForgetMs))]),
    )
    .where((eb) => eb.or([eb("blocked_until", "is", null), eb("blocked_until", "<=", now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
