import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { accessibleApplicationIds } from "../access/applications.ts";

/** Who may sponsor: GUEST_SPONSOR_UNITS narrows staff to those units and the units below them. */
export interface SponsorRule {
  sponsorUnits: readonly string[];
}

/** The units of the person's employee records that the rule allows (every one when it names none). */
function sponsorUnitRows(db: Db, userId: string, rule: SponsorRule) {
  let query = db
    .selectFrom("person_affiliations as record")
    .innerJoin("units as unit", "unit.id", "record.unit_id")
    .select(["unit.id", "unit.name_uk", "unit.name_en"])
    .distinct()
    .where("record.user_id", "=", userId)
    .where("record.affiliation", "=", "employee");
  if (rule.sponsorUnits.length > 0) {
    query = query.where(
      sql<boolean>`exists (select 1 from units allowed where allowed.code = any(${[...rule.sponsorUnits]}::text[])
        and (allowed.id = unit.id or allowed.id = any(unit.ancestry)))`,
    );
  }
  return query.orderBy("unit.name_uk").execute();
}

async function isCurrentGuest(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("guests")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("ended_at", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the person may sponsor guests: an employee affiliation (an active or on-leave position), in a unit the
 * rule allows when it names units, and not a guest themselves.
 */
export async function maySponsor(db: Db, userId: string, rule: SponsorRule): Promise<boolean> {
  if (await isCurrentGuest(db, userId)) return false;
  if (rule.sponsorUnits.length === 0) {
    const row = await db
      .selectFrom("person_affiliations")
      .select("user_id")
      .where("user_id", "=", userId)
      .where("affiliation", "=", "employee")
      .executeTakeFirst();
    return row !== undefined;
  }
  return (await sponsorUnitRows(db, userId, rule)).length > 0;
}

/** 403 guest.not_sponsor for anyone who may not sponsor (a guest, a student, staff outside the units named). */
export async function requireSponsor(db: Db, userId: string, rule: SponsorRule): Promise<void> {
  if (!(await maySponsor(db, userId, rule))) throw new AppError("guest.not_sponsor");
}

export interface NamedChoice {
  id: string;
  name: string;
}

/** The units a sponsor may attach a guest to: those they work in (as the rule allows). */
export async function sponsorUnits(
  db: Db,
  userId: string,
  rule: SponsorRule,
  english: boolean,
): Promise<NamedChoice[]> {
  const rows = await sponsorUnitRows(db, userId, rule);
  return rows.map((row) => ({ id: row.id, name: english && row.name_en ? row.name_en : row.name_uk }));
}

/** The applications a sponsor may name: the live ones they can open themselves. */
export async function sponsorApplications(db: Db, userId: string, english: boolean): Promise<NamedChoice[]> {
  const rows = await db
    .selectFrom("applications")
    .select(["id", "title", "title_en"])
    .where("id", "in", sql<string>`${accessibleApplicationIds(userId)}`)
    .where("lifecycle", "=", "live")
    .orderBy("title")
    .execute();
  return rows.map((row) => ({ id: row.id, name: english && row.title_en ? row.title_en : row.title }));
}

/** Refuses units and applications the sponsor may not name (400 guest.unit_not_allowed, application_not_allowed). */
export async function requireChoicesAllowed(
  db: Db,
  userId: string,
  rule: SponsorRule,
  chosen: { unitIds: readonly string[]; applicationIds: readonly string[] },
): Promise<void> {
  const units = new Set((await sponsorUnitRows(db, userId, rule)).map((row) => row.id));
  if (chosen.unitIds.some((id) => !units.has(id))) throw new AppError("guest.unit_not_allowed");
  if (chosen.applicationIds.length === 0) return;
  const applications = new Set((await sponsorApplications(db, userId, false)).map((row) => row.id));
  if (chosen.applicationIds.some((id) => !applications.has(id))) throw new AppError("guest.application_not_allowed");
}
