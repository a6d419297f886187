import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { peopleWithAffiliation } from "../people/profile.ts";
import {
  type Addressee,
  activeAdminAddressees,
  activePeopleIds,
  addresseesByIds,
  disabledPeopleIds,
  leftPeopleIds,
} from "../users/contacts.ts";

export type { Addressee };

const dayMs = 24 * 60 * 60 * 1000;

/** The reminders before a guest's end, furthest first (issue 78: 14 and 3 days before). */
export const reminderDays = [14, 3] as const;

export interface DueReminder {
  guestId: string;
  days: number;
  endsAt: Date;
  guest: Addressee;
  sponsor?: Addressee & { id: string };
}

/**
 * Current guests a reminder is due for: their end is within 14 (or 3) days and that reminder has not gone. A
 * guest first seen at 2 days left gets the 3-day one only (one mail, the nearest).
 */
export async function dueReminders(db: Db, now: Date): Promise<DueReminder[]> {
  const rows = await db
    .selectFrom("guests as g")
    .select(["g.user_id", "g.ends_at", "g.reminded_days", "g.sponsor_id"])
    .where("g.ended_at", "is", null)
    .where("g.ends_at", ">", now)
    .where("g.ends_at", "<=", new Date(now.getTime() + reminderDays[0] * dayMs))
    .where("g.user_id", "in", activePeopleIds(db))
    .limit(500)
    .execute();
  const people = await addresseesByIds(
    db,
    rows.flatMap((row) => (row.sponsor_id ? [row.user_id, row.sponsor_id] : [row.user_id])),
  );
  const due: DueReminder[] = [];
  for (const row of rows) {
    const guest = people.get(row.user_id);
    const sponsor = row.sponsor_id ? people.get(row.sponsor_id) : undefined;
    if (!guest) continue;
    const left = row.ends_at.getTime() - now.getTime();
    const days = [...reminderDays].reverse().find((each) => left <= each * dayMs);
    if (days === undefined || row.reminded_days.some((sent) => sent <= days)) continue;
    due.push({
      guestId: row.user_id,
      days,
      endsAt: row.ends_at,
      guest: addressee(guest),
      sponsor: row.sponsor_id && sponsor ? { id: row.sponsor_id, ...addressee(sponsor) } : undefined,
    });
  }
  return due;
}

/**
 * Claims the reminder of `days` (and the ones before it): true for the one caller that noted it, so two instances
 * running the job at once mail once.
 */
export async function claimReminder(db: Db, guestId: string, days: number): Promise<boolean> {
  const sent = reminderDays.filter((each) => each >= days);
  const claimed = await db
    .updateTable("guests")
    .set({ reminded_days: [...sent] })
    .where("user_id", "=", guestId)
    .where(sql<boolean>`not (${days}::integer = any(reminded_days))`)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Current guests whose end has come. */
export async function expiredGuestIds(db: Db, now: Date, limit = 200): Promise<string[]> {
  const rows = await db
    .selectFrom("guests")
    .select("user_id")
    .where("ended_at", "is", null)
    .where("ends_at", "<=", now)
    .orderBy("ends_at")
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_id);
}

/** Ended guests, still named, whose end is longer ago than GUEST_ERASE_AFTER_DAYS (0: none). */
export async function guestsPastRetention(db: Db, now: Date, days: number, limit = 100): Promise<string[]> {
  if (days <= 0) return [];
  const rows = await db
    .selectFrom("guests as g")
    .select("g.user_id")
    .where("g.ended_at", "<=", new Date(now.getTime() - days * dayMs))
    .where("g.user_id", "in", disabledPeopleIds(db))
    .orderBy("g.ended_at")
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_id);
}

export interface LeftSponsor {
  sponsorId: string | null;
  sponsorName: string;
  guestIds: string[];
}

/**
 * Current guests whose sponsor left (disabled, erased, or no longer an employee), not yet handed over; grouped
 * by the sponsor who left.
 */
export async function guestsOfLeftSponsors(db: Db): Promise<LeftSponsor[]> {
  const rows = await db
    .selectFrom("guests as g")
    .select(["g.user_id", "g.sponsor_id"])
    .where("g.ended_at", "is", null)
    .where("g.handed_over_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("g.sponsor_id", "is", null),
        eb("g.sponsor_id", "in", leftPeopleIds(db)),
        eb.not(eb("g.sponsor_id", "in", peopleWithAffiliation(db, "employee"))),
      ]),
    )
    .execute();
  const sponsors = await addresseesByIds(
    db,
    rows.flatMap((row) => row.sponsor_id ?? []),
  );
  const bySponsor = new Map<string, LeftSponsor>();
  for (const row of rows) {
    const key = row.sponsor_id ?? "";
    const sponsorName = (row.sponsor_id && sponsors.get(row.sponsor_id)?.name) || "";
    const entry = bySponsor.get(key) ?? { sponsorId: row.sponsor_id, sponsorName, guestIds: [] };
    entry.guestIds.push(row.user_id);
    bySponsor.set(key, entry);
  }
  return [...bySponsor.values()];
}

/** The guests are the operators' from now on (no sponsor, handed over now); the ids this call handed over. */
export async function handOverToOperators(db: Db, guestIds: readonly string[], now: Date): Promise<string[]> {
  if (guestIds.length === 0) return [];
  const rows = await db
    .updateTable("guests")
    .set({ sponsor_id: null, handed_over_at: now })
    .where("user_id", "in", [...guestIds])
    .where("handed_over_at", "is", null)
    .returning("user_id")
    .execute();
  return rows.map((row) => row.user_id);
}

/** The console's admins, to be told of guests handed to them. */
export function operatorsToTell(db: Db): Promise<Addressee[]> {
  return activeAdminAddressees(db);
}

/** Only the addressee's own fields (the map's entries carry whether they are active). */
const addressee = ({ name, email, verified_email, language }: Addressee): Addressee => ({
  name,
  email,
  verified_email,
  language,
});
