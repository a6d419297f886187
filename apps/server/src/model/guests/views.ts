import type { AdminGuest, Guest, GuestState } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { applicationsJson } from "../apps/listed.ts";
import { unitsJson, unitWithin } from "../people/fragments.ts";
import { peopleRows } from "../users/for-lists.ts";

export interface GuestFilter {
  /** One guest: the person themselves (the data download). */
  guestId?: string;
  sponsorId?: string;
  /** A sponsor's username or id, as an operator types it. */
  sponsorNamed?: string;
  unitId?: string;
  /**
   * A unit role's reach (issue 79): only guests the sponsor attached to one of these units. A guest attached to no
   * unit is the university's, seen by the university-wide roles alone.
   */
  inUnits?: readonly string[];
  state?: GuestState;
  /** Leave out guests ended this long ago or longer: a sponsor's card shows recent ones only. */
  endedSince?: Date;
}

function guestRows(db: Db, filter: GuestFilter, english: boolean) {
  let query = db
    .selectFrom("guests as g")
    .innerJoin(peopleRows(db).as("person"), "person.id", "g.user_id")
    .leftJoin(peopleRows(db).as("sponsor"), "sponsor.id", "g.sponsor_id")
    .leftJoin("guest_invitations as invitation", "invitation.user_id", "g.user_id")
    .select([
      "g.user_id",
      "g.reason",
      "g.ends_at",
      "g.created_at",
      "g.ended_at",
      "g.handed_over_at",
      "person.full_name",
      "person.email",
      "person.username",
      "person.tax_id",
      "person.password_hash",
      "invitation.used_at",
      "sponsor.id as sponsor_id",
      "sponsor.full_name as sponsor_name",
      "sponsor.username as sponsor_username",
      unitsJson(sql`(select gu.unit_id from guest_units gu where gu.user_id = g.user_id)`, english).as("units"),
      applicationsJson(
        sql`(select ga.application_id from guest_applications ga where ga.user_id = g.user_id)`,
        english,
      ).as("applications"),
    ])
    .where("person.anonymised_at", "is", null);
  if (filter.guestId) query = query.where("g.user_id", "=", filter.guestId);
  if (filter.sponsorId) query = query.where("g.sponsor_id", "=", filter.sponsorId);
  if (filter.sponsorNamed) {
    const named = filter.sponsorNamed.toLowerCase();
    query = query.where((eb) =>
      eb.or([eb(sql<string>`lower(sponsor.username)`, "=", named), eb(sql<string>`sponsor.id::text`, "=", named)]),
    );
  }
  if (filter.unitId) {
    const unitId = filter.unitId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("guest_units as gu")
          .select("gu.unit_id")
          .whereRef("gu.user_id", "=", "g.user_id")
          .where(unitWithin(sql.ref("gu.unit_id"), unitId)),
      ),
    );
  }
  if (filter.inUnits) {
    // `in ()` is not SQL: an empty reach sees no one (a nil id matches no unit).
    const reached = filter.inUnits.length > 0 ? [...filter.inUnits] : ["00000000-0000-0000-0000-000000000000"];
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("guest_units as gu")
          .select("gu.unit_id")
          .whereRef("gu.user_id", "=", "g.user_id")
          .where("gu.unit_id", "in", reached),
      ),
    );
  }
  if (filter.state === "ended") query = query.where("g.ended_at", "is not", null);
  if (filter.state === "active")
    query = query.where("g.ended_at", "is", null).where("invitation.used_at", "is not", null);
  if (filter.state === "invited") query = query.where("g.ended_at", "is", null).where("invitation.used_at", "is", null);
  if (filter.endedSince) {
    const since = filter.endedSince;
    query = query.where((eb) => eb.or([eb("g.ended_at", "is", null), eb("g.ended_at", ">", since)]));
  }
  return query
    .orderBy("g.ended_at", (order) => order.desc().nullsFirst())
    .orderBy("g.ends_at")
    .limit(1000)
    .execute();
}

type GuestRow = Awaited<ReturnType<typeof guestRows>>[number];

function stateOf(row: GuestRow): GuestState {
  if (row.ended_at) return "ended";
  return row.used_at || row.password_hash || row.tax_id ? "active" : "invited";
}

function asGuest(row: GuestRow): Guest {
  return {
    id: row.user_id,
    fullName: row.full_name,
    email: row.email ?? "",
    username: row.username,
    state: stateOf(row),
    endsAt: row.ends_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    reason: row.reason,
    units: row.units,
    applications: row.applications,
    identityProofed: row.tax_id !== null,
  };
}

/** A sponsor's guests: current and invited ones, and those ended within `endedSince`. */
export async function guestsOfSponsor(db: Db, sponsorId: string, english: boolean, endedSince: Date): Promise<Guest[]> {
  return (await guestRows(db, { sponsorId, endedSince }, english)).map(asGuest);
}

/** The console's list, by sponsor and unit (a unit takes the units below it). */
export async function guestsForConsole(db: Db, filter: GuestFilter, english: boolean): Promise<AdminGuest[]> {
  const rows = await guestRows(db, filter, english);
  return rows.map((row) => ({
    ...asGuest(row),
    sponsor: row.sponsor_id
      ? { id: row.sponsor_id, name: row.sponsor_name ?? "", username: row.sponsor_username ?? "" }
      : null,
    handedOver: row.handed_over_at !== null,
  }));
}

/** The guest row of a sponsor's guest, for a change they make; undefined when it is not theirs. */
export function sponsoredGuest(db: Db, sponsorId: string, guestId: string) {
  return db
    .selectFrom("guests")
    .selectAll()
    .where("user_id", "=", guestId)
    .where("sponsor_id", "=", sponsorId)
    .executeTakeFirst();
}
