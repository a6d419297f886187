import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

export interface WifiFigures {
  days: { day: string; accepted: number; refused: number }[];
  failures: { reason: string; count: number }[];
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Wi-Fi sign-ins per day (UTC) and refusals by reason over the last `days`, from the audit rows the RADIUS
 * endpoint writes (one per decision). Days without any are left out.
 */
export async function wifiFigures(db: Db, now: Date, days = 14): Promise<WifiFigures> {
  const since = new Date(now.getTime() - days * dayMs);
  const perDay = await db
    .selectFrom("audit_events")
    .select([
      sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      sql<string>`count(*) filter (where result = 'success')`.as("accepted"),
      sql<string>`count(*) filter (where result = 'failure')`.as("refused"),
    ])
    .where("event_type", "=", "wifi_sign_in")
    .where("occurred_at", ">=", since)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  const failures = await db
    .selectFrom("audit_events")
    .select([sql<string>`coalesce(reason, '')`.as("reason"), sql<string>`count(*)`.as("count")])
    .where("event_type", "=", "wifi_sign_in")
    .where("result", "=", "failure")
    .where("occurred_at", ">=", since)
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`)
    .execute();
  return {
    days: perDay.map((row) => ({ day: row.day, accepted: Number(row.accepted), refused: Number(row.refused) })),
    failures: failures.map((row) => ({ reason: row.reason, count: Number(row.count) })),
  };
}
