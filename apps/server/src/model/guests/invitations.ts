import { sql } from "kysely";
import { hashTokenHex } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { addresseesByIds } from "../users/contacts.ts";
import { findUserByTaxId, updateUser } from "../users/queries.ts";

export interface OpenInvitation {
  userId: string;
  fullName: string;
  sponsor: string;
  endsAt: Date;
}

/** The invitation a link holds while it is good (not used, not expired, the guest not ended); 400 otherwise. */
export async function openInvitation(db: Db, token: string, now: Date): Promise<OpenInvitation> {
  const row = await db
    .selectFrom("guest_invitations as invitation")
    .innerJoin("guests as g", "g.user_id", "invitation.user_id")
    .select(["g.user_id", "g.sponsor_id", "g.ends_at"])
    .where("invitation.token_hash", "=", hashTokenHex(token))
    .where("invitation.used_at", "is", null)
    .where("invitation.expires_at", ">", now)
    .where("g.ended_at", "is", null)
    .executeTakeFirst();
  if (!row) throw new AppError("guest.invitation_invalid");
  const people = await addresseesByIds(db, [row.user_id, ...(row.sponsor_id ? [row.sponsor_id] : [])]);
  const person = people.get(row.user_id);
  if (!person?.active) throw new AppError("guest.invitation_invalid");
  const sponsor = row.sponsor_id ? (people.get(row.sponsor_id)?.name ?? "") : "";
  return { userId: row.user_id, fullName: person.name, sponsor, endsAt: row.ends_at };
}

/**
 * Uses the invitation up, only for the address it was sent to: the link works once, and a link forwarded to
 * someone else does not work for them. Of two acceptances at once only one gets the person. The address becomes
 * the person's confirmed one (the mail reached it). 400 guest.invitation_invalid for anything else.
 */
export async function consumeInvitation(db: Db, token: string, email: string, now: Date): Promise<string> {
  return db.transaction().execute((tx) => useInvitation(tx, token, email, now));
}

async function useInvitation(tx: Db, token: string, email: string, now: Date): Promise<string> {
  const used = await tx
    .updateTable("guest_invitations")
    .set({ used_at: now })
    .where("token_hash", "=", hashTokenHex(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where(sql<string>`lower(email)`, "=", email.trim().toLowerCase())
    .returning(["user_id", "email"])
    .executeTakeFirst();
  if (!used) throw new AppError("guest.invitation_invalid");
  await updateUser(tx, used.user_id, { verified_email: used.email });
  return used.user_id;
}

/** The person the state vouches for (BankID or Diia): a tax id and the name as the state writes it. */
export interface StateIdentity {
  taxId: string;
  fullName: string;
}

/**
 * Accepting with the state's identity: the invitation is used up (for its address only, as with a password),
 * the guest takes the state's name and tax id (the tax id is what identity-proofed means, views.ts, and what
 * finds them at the next BankID or Diia sign-in). A tax id already on another person is refused, nothing used
 * up: one human, one account. Answers the guest's id, or "identity_linked".
 */
export async function consumeInvitationWithState(
  db: Db,
  token: string,
  email: string,
  identity: StateIdentity,
  now: Date,
): Promise<string | "identity_linked"> {
  return db.transaction().execute(async (tx) => {
    const invited = await tx
      .selectFrom("guest_invitations")
      .select("user_id")
      .where("token_hash", "=", hashTokenHex(token))
      .executeTakeFirst();
    const holder = await findUserByTaxId(tx, identity.taxId);
    if (holder && holder.id !== invited?.user_id) return "identity_linked";
    const userId = await useInvitation(tx, token, email, now);
    await updateUser(tx, userId, { tax_id: identity.taxId, full_name: identity.fullName });
    return userId;
  });
}
