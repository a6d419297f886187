import type { Db } from "../db/schema.ts";

/**
 * Most rows one clean-up run deletes. Ten-minute runs then remove up to 7.2 million rows a day, far
 * above a campus' ~150,000 new rows a day, so a first run over years of history catches up within
 * days while no single run holds its transaction long enough to matter.
 */
export const auditRowsPerRun = 50_000;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Deletes the oldest audit rows past the retention (AUDIT_RETENTION_DAYS; 0 keeps everything).
 * Old rows are found through the occurred_at index, so the cost follows the rows deleted,
 * not the size of the table; sign-ins only ever append, so they never wait on this.
 */
export async function deleteAuditPastRetention(db: Db, now: Date, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * dayMs);
  const result = await db
    .deleteFrom("audit_events")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("audit_events")
        .select("id")
        .where("occurred_at", "<", cutoff)
        .orderBy("occurred_at")
        .limit(auditRowsPerRun),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
