import { createHmac } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { delayAfterFailures, type ThrottleRule, throttlePolicy } from "./throttle-policy.ts";

type Db = Kysely<Database>;

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/**
 * Counter keys for one credential check. The account part is an HMAC of the
 * lower-cased username, so the table and any log of it never hold a typed
 * username (people type passwords into the username field), and unknown
 * usernames get counters exactly like real ones.
 */
export function credentialThrottleKeys(secret: string, username: string, ip: string): ThrottleKey[] {
  const account = createHmac("sha256", secret).update(username.trim().toLowerCase(), "utf8").digest("base64url");
  return [
    { key: `account:${account}`, rule: throttlePolicy.account },
    { key: `ip:${ip}`, rule: throttlePolicy.ip },
  ];
}

/** Seconds until every key may try again; 0 when none is waiting. */
export async function secondsUntilAllowed(db: Db, keys: ThrottleKey[], now: Date): Promise<number> {
  const rows = await db
    .selectFrom("throttle_counters")
    .select("blocked_until")
    .where(
      "key",
      "in",
      keys.map((k) => k.key),
    )
    .where("blocked_until", ">", now)
    .execute();
  const latest = Math.max(0, ...rows.map((row) => row.blocked_until?.getTime() ?? 0));
  return latest === 0 ? 0 : (latest - now.getTime()) / 1000;
}

/**
 * Counts one failure against each key (atomically, so instances sharing the
 * database agree) and sets how long the key must now wait.
 */
export async function recordFailure(db: Db, keys: ThrottleKey[], now: Date): Promise<void> {
  for (const { key, rule } of keys) {
    const forgetBefore = new Date(now.getTime() - rule.forgetAfterSeconds * 1000);
    const row = await db
      .insertInto("throttle_counters")
      .values({ key, failures: 1, first_failure_at: now, last_failure_at: now })
      .onConflict((conflict) =>
        conflict.column("key").doUpdateSet({
          failures: sql<number>`case when throttle_counters.last_failure_at < ${forgetBefore}::timestamptz
            then 1 else throttle_counters.failures + 1 end`,
          first_failure_at: sql<Date>`case when throttle_counters.last_failure_at < ${forgetBefore}::timestamptz
            then ${now}::timestamptz else throttle_counters.first_failure_at end`,
          last_failure_at: now,
        }),
      )
      .returning("failures")
      .executeTakeFirstOrThrow();
    const delay = delayAfterFailures(rule, row.failures);
    if (delay > 0) {
      const until = new Date(now.getTime() + delay * 1000);
      await db
        .updateTable("throttle_counters")
        .set({
          blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}::timestamptz), ${until}::timestamptz)`,
        })
        .where("key", "=", key)
        .execute();
    }
  }
}

/** A successful sign-in clears its account's count; the address keeps its count. */
export async function resetAccount(db: Db, keys: ThrottleKey[]): Promise<void> {
  const accountKeys = keys.filter((k) => k.key.startsWith("account:")).map((k) => k.key);
  if (accountKeys.length > 0) await db.deleteFrom("throttle_counters").where("key", "in", accountKeys).execute();
}
