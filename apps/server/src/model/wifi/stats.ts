import { wifiRefusalsByReason, wifiSignInsPerDay } from "../../platform/audit/counts.ts";
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
  const perDay = await wifiSignInsPerDay(db, since);
  const failures = await wifiRefusalsByReason(db, since);
  return {
    days: perDay.map((row) => ({ day: row.day, accepted: Number(row.accepted), refused: Number(row.refused) })),
    failures: failures.map((row) => ({ reason: row.reason, count: Number(row.count) })),
  };
}
