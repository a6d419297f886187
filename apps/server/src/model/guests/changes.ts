import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { endOfKyivDay, isCalendarDay, latestEndDay } from "./days.ts";

/**
 * The moment a guest whose last day is `day` stops, checked: 400 guest.end_in_past for a day not after today,
 * guest.end_too_late past GUEST_MAX_DAYS from today. With no day, the furthest allowed (the one-click extension).
 */
export function checkedEnd(day: string | undefined, now: Date, maxDays: number): Date {
  const latest = latestEndDay(now, maxDays);
  const chosen = day ?? latest;
  if (!isCalendarDay(chosen)) throw new AppError("guest.end_in_past");
  if (chosen > latest) throw new AppError("guest.end_too_late");
  const end = endOfKyivDay(chosen);
  if (end.getTime() - now.getTime() < 24 * 60 * 60 * 1000) throw new AppError("guest.end_in_past");
  return end;
}

/**
 * Moves a current guest's end (the sponsor's extension, or a shortening); the reminders start over. 404
 * guest.not_found when the guest is not the sponsor's, 409 guest.ended after their end.
 */
export async function moveGuestEnd(db: Db, sponsorId: string, guestId: string, endsAt: Date): Promise<Date> {
  const row = await db
    .updateTable("guests")
    .set({ ends_at: endsAt, reminded_days: [] })
    .where("user_id", "=", guestId)
    .where("sponsor_id", "=", sponsorId)
    .where("ended_at", "is", null)
    .returning("ends_at")
    .executeTakeFirst();
  if (row) return row.ends_at;
  const exists = await db
    .selectFrom("guests")
    .select("user_id")
    .where("user_id", "=", guestId)
    .where("sponsor_id", "=", sponsorId)
    .executeTakeFirst();
  throw new AppError(exists ? "guest.ended" : "guest.not_found");
}

/**
 * Marks the guest ended now (their affiliation goes with it); the caller disables the person. True when this
 * call ended them, false when they had ended already. `sponsorId` limits it to the sponsor's own guests.
 */
export async function markGuestEnded(db: Db, guestId: string, now: Date, sponsorId?: string): Promise<boolean> {
  let query = db
    .updateTable("guests")
    .set({ ended_at: now })
    .where("user_id", "=", guestId)
    .where("ended_at", "is", null);
  if (sponsorId) query = query.where("sponsor_id", "=", sponsorId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
