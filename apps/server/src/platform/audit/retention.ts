import type { AuditEventType } from "@kpi-id/contracts";
import type { Db } from "../db/schema.ts";

/**
 * Most rows one clean-up run deletes. Ten-minute runs then remove up to 7.2 million rows a day, far
 * above a campus' ~150,000 new rows a day, so a first run over years of history catches up within
 * days while no single run holds its transaction long enough to matter.
 */
export const auditRowsPerRun = 50_000;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The sign-in history: rows of signing in and out and of handing a sign-in to an application. They are most
 * of the table and say where a person was and when, so SIGN_IN_HISTORY_RETENTION_DAYS keeps them shorter than
 * the rest of the audit log (changes to a person, their factors, access and keys: AUDIT_RETENTION_DAYS).
 */
export const signInHistoryTypes = [
  "sign_in",
  "session_start",
  "logout",
  "session_end",
  "app_redirect",
  "ticket_exchange",
  "oidc_sign_in",
  "oidc_logout",
  // Each Wi-Fi authentication (docs/eduroam.md, "What is logged").
  "wifi_sign_in",
] as const satisfies readonly AuditEventType[];

async function deleteOldest(db: Db, cutoff: Date, types?: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom("audit_events")
    .where("id", "in", (eb) => {
      const old = eb.selectFrom("audit_events").select("id").where("occurred_at", "<", cutoff);
      return (types ? old.where("event_type", "in", types) : old).orderBy("occurred_at").limit(auditRowsPerRun);
    })
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the oldest audit rows past the retention (AUDIT_RETENTION_DAYS; 0 keeps everything).
 * Old rows are found through the occurred_at index, so the cost follows the rows deleted,
 * not the size of the table; sign-ins only ever append, so they never wait on this.
 */
export function deleteAuditPastRetention(db: Db, now: Date, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return Promise.resolve(0);
  return deleteOldest(db, new Date(now.getTime() - retentionDays * dayMs));
}

/** Deletes sign-in history past SIGN_IN_HISTORY_RETENTION_DAYS (0 leaves it to AUDIT_RETENTION_DAYS), by the (event_type, occurred_at) index. */
export function deleteSignInHistoryPastRetention(db: Db, now: Date, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return Promise.resolve(0);
  return deleteOldest(db, new Date(now.getTime() - retentionDays * dayMs), signInHistoryTypes);
}
