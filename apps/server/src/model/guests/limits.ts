import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockUnits } from "../people/units.ts";
import { lockPerson } from "../users/queries.ts";

export interface GuestLimits {
  perSponsor: number;
  perUnit: number;
}

/**
 * 409 guest.sponsor_limit or guest.unit_limit when one more current guest would pass GUEST_LIMIT_PER_SPONSOR
 * or GUEST_LIMIT_PER_UNIT. The caller holds the sponsor's and the units' rows locked (createGuest), so two
 * invitations at once cannot both take the last place.
 */
export async function requireRoom(db: Db, sponsorId: string, unitIds: readonly string[], limits: GuestLimits) {
  const sponsored = await db
    .selectFrom("guests")
    .select(sql<string>`count(*)`.as("n"))
    .where("sponsor_id", "=", sponsorId)
    .where("ended_at", "is", null)
    .executeTakeFirstOrThrow();
  if (Number(sponsored.n) >= limits.perSponsor) throw new AppError("guest.sponsor_limit");
  if (unitIds.length === 0) return;
  const fullest = await db
    .selectFrom("guest_units")
    .innerJoin("guests", "guests.user_id", "guest_units.user_id")
    .select(["guest_units.unit_id", sql<string>`count(*)`.as("n")])
    .where("guest_units.unit_id", "in", [...unitIds])
    .where("guests.ended_at", "is", null)
    .groupBy("guest_units.unit_id")
    .orderBy(sql`count(*)`, "desc")
    .executeTakeFirst();
  if (fullest && Number(fullest.n) >= limits.perUnit) throw new AppError("guest.unit_limit");
}

/** Locks the sponsor's row and the units' rows until the transaction ends: invitations wait their turn. */
export async function lockForInvitation(db: Db, sponsorId: string, unitIds: readonly string[]) {
  await lockPerson(db, sponsorId);
  await lockUnits(db, unitIds);
}
