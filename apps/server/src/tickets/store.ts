import type { AuthMethod } from "@kpi-id/contracts";
import { hashToken, newToken } from "../crypto/tokens.ts";
import type { Db } from "../db/schema.ts";

export interface NewTicket {
  applicationId: string;
  userId: string;
  authMethod: AuthMethod;
}

/** A one-time ticket for one application; only its hash is stored. */
export async function issueTicket(db: Db, ticket: NewTicket, ttlSeconds: number, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto("tickets")
    .values({
      ticket_hash: hashToken(token),
      application_id: ticket.applicationId,
      user_id: ticket.userId,
      auth_method: ticket.authMethod,
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

/**
 * Marks the ticket used and returns it with its person, in one statement so
 * that of two concurrent redemptions only one wins. Unknown, used, expired,
 * another application's, or a since-disabled person's ticket: undefined.
 */
export async function consumeTicket(db: Db, token: string, applicationId: string, now: Date) {
  const ticket = await db
    .updateTable("tickets")
    .set({ consumed_at: now })
    .where("ticket_hash", "=", hashToken(token))
    .where("application_id", "=", applicationId)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .where("user_id", "in", (eb) => eb.selectFrom("users").select("id").where("status", "=", "active"))
    .returning(["id", "user_id", "auth_method", "trace_id", "created_at"])
    .executeTakeFirst();
  if (!ticket) return undefined;
  const user = await db.selectFrom("users").selectAll().where("id", "=", ticket.user_id).executeTakeFirstOrThrow();
  return { ticket, user };
}
