// Tickets ending without being redeemed: past their expiry (maintenance), an application's when everyone is signed
// out of it, a person's when they are erased. The tickets table is model/tickets'.
import type { Db } from "../../platform/db/schema.ts";

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/** Deletes the tickets past their expiry; answers how many went. */
export async function deleteExpiredTickets(db: Db, now: Date): Promise<number> {
  return deleted(await db.deleteFrom("tickets").where("expires_at", "<=", now).executeTakeFirst());
}

/** Deletes the application's tickets not yet redeemed; answers how many went. */
export async function deleteUnredeemedTicketsOf(db: Db, applicationId: string): Promise<number> {
  const result = await db
    .deleteFrom("tickets")
    .where("application_id", "=", applicationId)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return deleted(result);
}

/** Deletes the person's tickets and their consent requests waiting for an answer; answers how many went. */
export async function deleteTicketsOfPerson(db: Db, userId: string): Promise<number> {
  const tickets = await db.deleteFrom("tickets").where("user_id", "=", userId).executeTakeFirst();
  const requests = await db.deleteFrom("ticket_consent_requests").where("user_id", "=", userId).executeTakeFirst();
  return deleted(tickets) + deleted(requests);
}
