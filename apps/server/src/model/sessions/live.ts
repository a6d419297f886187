import type { AccountSession } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { describeDevice } from "../../platform/device/describe-device.ts";

/** A person's sessions still open at `now`, the latest active first: the account page's and the console's list. */
export function openSessionRowsOf(db: Db, userId: string, now: Date) {
  return db
    .selectFrom("sessions")
    .select(["id", "auth_method", "created_at", "last_seen_at", "ip", "user_agent"])
    .where("user_id", "=", userId)
    .where("idle_expires_at", ">", now)
    .where("absolute_expires_at", ">", now)
    .orderBy("last_seen_at", "desc")
    .execute();
}

/** The ids of a person's sessions, as a statement another area's reads it in (CAS's sign-ins whose session ended). */
export function sessionIdsOf(db: Db, userId: string) {
  return db.selectFrom("sessions").select("id").where("user_id", "=", userId);
}

/** The ids of every session still kept, as a subquery (a CAS proxy-granting ticket lives while its session does). */
export function everySessionId(db: Db) {
  return db.selectFrom("sessions").select("id");
}

/** The live sessions of a person, newest activity first; `currentId` marks the asking browser's. */
export async function liveSessionsOf(db: Db, userId: string, currentId: string, now: Date): Promise<AccountSession[]> {
  const rows = await openSessionRowsOf(db, userId, now);
  return rows.map((row) => ({
    id: row.id,
    ...describeDevice(row.user_agent),
    method: row.auth_method,
    startedAt: row.created_at.toISOString(),
    lastActiveAt: row.last_seen_at.toISOString(),
    address: row.ip ?? "",
    current: row.id === currentId,
  }));
}
