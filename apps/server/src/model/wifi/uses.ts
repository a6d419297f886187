import type { Db } from "../../platform/db/schema.ts";

/**
 * How many uses of one network password are kept: the five the account page and the console show, and enough
 * besides to remember the devices recently signed in with it (model/wifi/throttle.ts knows a returning device by
 * them). The audit log's `wifi_sign_in` rows keep the full history for tracing, for their own retention.
 */
export const usesKeptPerPassword = 20;

/** Most rows one clean-up run deletes, as for the audit log (platform/audit/retention.ts): short transactions. */
export const wifiUsesPerRun = 50_000;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Keeps only the latest `usesKeptPerPassword` uses of one password, right after a new one is recorded: the
 * (password_id, used_at desc) index finds the rest without reading the table, so the cap costs one indexed
 * statement per accepted sign-in instead of a scan of every password's uses in the clean-up.
 */
export async function keepLatestUses(db: Db, passwordId: string): Promise<number> {
  const result = await db
    .deleteFrom("wifi_uses")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("wifi_uses")
        .select("id")
        .where("password_id", "=", passwordId)
        .orderBy("used_at", "desc")
        .orderBy("id", "desc")
        .offset(usesKeptPerPassword),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes Wi-Fi uses (when, which access point, the device's hashed MAC) older than the sign-in history's
 * retention: SIGN_IN_HISTORY_RETENTION_DAYS, else AUDIT_RETENTION_DAYS when that is 0, as the `wifi_sign_in` audit
 * rows that record the same sign-ins; both 0 keep them. By the used_at index, oldest first, a bounded batch per run.
 */
export async function deleteWifiUsesPastRetention(
  db: Db,
  now: Date,
  retention: { signInHistoryDays: number; auditDays: number },
): Promise<number> {
  const days = retention.signInHistoryDays > 0 ? retention.signInHistoryDays : retention.auditDays;
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * dayMs);
  const result = await db
    .deleteFrom("wifi_uses")
    .where("id", "in", (eb) =>
      eb.selectFrom("wifi_uses").select("id").where("used_at", "<", cutoff).orderBy("used_at").limit(wifiUsesPerRun),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
