import type { Language } from "@kpi-id/contracts";
import { hashTokenHex, newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { insertUser } from "../users/queries.ts";
import { type GuestLimits, lockForInvitation, requireRoom } from "./limits.ts";

const dayMs = 24 * 60 * 60 * 1000;

export interface NewGuest {
  sponsorId: string;
  fullName: string;
  email: string;
  endsAt: Date;
  unitIds: readonly string[];
  applicationIds: readonly string[];
  reason: string;
  language: Language;
}

export interface CreatedGuest {
  userId: string;
  username: string;
  /** The invitation link's secret: mailed once, stored only as its hash. */
  token: string;
  invitationExpiresAt: Date;
}

// Guest usernames say what they are and never collide with a campus username (those come from the records).
const usernameAlphabet = "abcdefghijkmnpqrstuvwxyz23456789";
function guestUsername(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `guest.${Array.from(bytes, (byte) => usernameAlphabet[byte % usernameAlphabet.length]).join("")}`;
}

/**
 * Makes the guest: a person who must set up a second factor (require_mfa), with no password until they accept,
 * their guest row, units and applications, and the invitation (good for `invitationDays`, for `email` only).
 * Under the sponsor's and units' row locks, so the limits hold against invitations sent at once.
 */
export async function createGuest(
  db: Db,
  guest: NewGuest,
  limits: GuestLimits & { invitationDays: number },
  now: Date,
): Promise<CreatedGuest> {
  const unitIds = [...new Set(guest.unitIds)];
  const applicationIds = [...new Set(guest.applicationIds)];
  return db.transaction().execute(async (tx) => {
    await lockForInvitation(tx, guest.sponsorId, unitIds);
    await requireRoom(tx, guest.sponsorId, unitIds, limits);
    const person = await insertUser(tx, {
      username: guestUsername(),
      password_hash: null,
      full_name: guest.fullName,
      email: guest.email,
      require_mfa: true,
      language: guest.language,
    });
    await tx
      .insertInto("guests")
      .values({
        user_id: person.id,
        sponsor_id: guest.sponsorId,
        reason: guest.reason,
        ends_at: guest.endsAt,
        created_at: now,
      })
      .execute();
    if (unitIds.length > 0) {
      await tx
        .insertInto("guest_units")
        .values(unitIds.map((unitId) => ({ user_id: person.id, unit_id: unitId })))
        .execute();
    }
    if (applicationIds.length > 0) {
      await tx
        .insertInto("guest_applications")
        .values(applicationIds.map((applicationId) => ({ user_id: person.id, application_id: applicationId })))
        .execute();
    }
    const token = newToken();
    const invitationExpiresAt = new Date(now.getTime() + limits.invitationDays * dayMs);
    await tx
      .insertInto("guest_invitations")
      .values({
        user_id: person.id,
        email: guest.email,
        token_hash: hashTokenHex(token),
        expires_at: invitationExpiresAt,
      })
      .execute();
    return { userId: person.id, username: person.username, token, invitationExpiresAt };
  });
}
