// The ticket a protected site's callback redeems (the forward-auth endpoint): the tickets table is model/tickets'.
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { activePeopleIds } from "../users/contacts.ts";

/**
 * Redeems a ticket issued to a site behind nginx: once, in time, for this application, from a KPI ID session that
 * still exists, of a person still active. Returns the session and person it came from, or undefined.
 */
export async function redeemSiteTicket(db: Db, ticket: string, applicationId: string, now: Date) {
  return db
    .updateTable("tickets")
    .set({ consumed_at: now })
    .from("sessions")
    .where("tickets.ticket_hash", "=", hashToken(ticket))
    .where("tickets.application_id", "=", applicationId)
    .where("tickets.consumed_at", "is", null)
    .where("tickets.expires_at", ">", now)
    .whereRef("sessions.id", "=", "tickets.session_id")
    .where("sessions.absolute_expires_at", ">", now)
    .where("tickets.user_id", "in", activePeopleIds(db))
    .returning(["tickets.user_id as userId", "tickets.session_id as sessionId", "tickets.auth_method as authMethod"])
    .executeTakeFirst();
}
