import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { accessibleApplicationIds } from "../admission/applications.ts";
import { liveApplicationsAmong } from "../apps/listed.ts";
import { employeeUnits, hasEmployeeRecord } from "../people/fragments.ts";

/** Who may sponsor: GUEST_SPONSOR_UNITS narrows staff to those units and the units below them. */
export interface SponsorRule {
  sponsorUnits: readonly string[];
}

/** The units of the person's employee records that the rule allows (every one when it names none). */
function sponsorUnitRows(db: Db, userId: string, rule: SponsorRule) {
  return employeeUnits(db, userId, rule.sponsorUnits);
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
  if (rule.sponsorUnits.length === 0) return hasEmployeeRecord(db, userId);
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
  const rows = await liveApplicationsAmong(db, accessibleApplicationIds(userId));
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
