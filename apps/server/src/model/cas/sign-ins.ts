import type { Db } from "../../platform/db/schema.ts";
import { sessionIdsOf } from "../sessions/live.ts";

/** A service that asked for single logout, and the spent ticket its LogoutRequest names (SessionIndex). */
export interface CasSignIn {
  applicationId: string;
  service: string;
  spentTicket: string;
}

/**
 * Remembers a validated service ticket of a service that asked for single logout, until its KPI ID session ends.
 * The ticket is spent (it never validates again), so keeping its value hands nobody a credential.
 */
export async function recordCasSignIn(
  db: Db,
  signIn: CasSignIn & { sessionId: string; userId: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto("cas_sign_ins")
    .values({
      session_id: signIn.sessionId,
      user_id: signIn.userId,
      application_id: signIn.applicationId,
      service: signIn.service,
      spent_ticket: signIn.spentTicket,
      created_at: now,
    })
    .execute();
}

/** Takes (reads and forgets) the sign-ins of the KPI ID sessions that end. */
export async function takeCasSignIns(db: Db, sessionIds: readonly string[]): Promise<CasSignIn[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .deleteFrom("cas_sign_ins")
    .where("session_id", "in", sessionIds)
    .returning(["application_id", "service", "spent_ticket"])
    .execute();
  return rows.map((row) => ({
    applicationId: row.application_id,
    service: row.service,
    spentTicket: row.spent_ticket,
  }));
}

/**
 * The person's sessions that started at these times (seconds) and are gone: sessionsStartedAt reports only
 * the times, so the sign-ins of that person whose session no longer exists are the ones to end.
 */
export async function endedSessionIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("cas_sign_ins")
    .select("session_id")
    .distinct()
    .where("user_id", "=", userId)
    .where("session_id", "not in", sessionIdsOf(db, userId))
    .execute();
  return rows.map((row) => row.session_id);
}
