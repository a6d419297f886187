import { sql } from "kysely";
import type { Db, UnitRole } from "../../platform/db/schema.ts";
import { unitIdsUnder, unitNames } from "../people/units.ts";

/**
 * Console roles held in a unit (issue 79): a faculty's IT staff administer the people, applications and audit of
 * their unit and every unit below it. Admins and helpdesk (operator-roles.ts) stay university-wide.
 */

export const unitRoles = ["unit_admin", "unit_helpdesk"] as const satisfies readonly UnitRole[];

export function isUnitRole(value: unknown): value is UnitRole {
  return typeof value === "string" && (unitRoles as readonly string[]).includes(value);
}

export interface HeldUnitRole {
  role: UnitRole;
  unitId: string;
  unitCode: string;
  unitNameUk: string;
  unitNameEn: string;
  grantedAt: Date;
}

/** The unit roles a person holds, with their units' names (none for almost everyone). */
export async function unitRolesOf(db: Db, userId: string): Promise<HeldUnitRole[]> {
  const rows = await db
    .selectFrom("unit_roles")
    .innerJoin(unitNames(db).as("unit"), "unit.id", "unit_roles.unit_id")
    .select(["unit_roles.role", "unit_roles.unit_id", "unit.code", "unit.name_uk", "unit.name_en", "granted_at"])
    .where("unit_roles.user_id", "=", userId)
    .orderBy("unit.code")
    .orderBy("unit_roles.role")
    .execute();
  return rows.map((row) => ({
    role: row.role,
    unitId: row.unit_id,
    unitCode: row.code,
    unitNameUk: row.name_uk,
    unitNameEn: row.name_en,
    grantedAt: row.granted_at,
  }));
}

/** Gives the role in the unit; true when the person did not hold it yet. */
export async function grantUnitRole(db: Db, userId: string, unitId: string, role: UnitRole): Promise<boolean> {
  const result = await db
    .insertInto("unit_roles")
    .values({ user_id: userId, unit_id: unitId, role })
    .onConflict((conflict) => conflict.columns(["user_id", "unit_id", "role"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes the role in the unit away; true when the person held it. */
export async function revokeUnitRole(db: Db, userId: string, unitId: string, role: UnitRole): Promise<boolean> {
  const result = await db
    .deleteFrom("unit_roles")
    .where("user_id", "=", userId)
    .where("unit_id", "=", unitId)
    .where("role", "=", role)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every unit role of the person (erasure); how many there were. */
export async function revokeAllUnitRoles(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("unit_roles").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The ids of every unit the person's `roles` reach: the units they hold one of them in and every unit below
 * (a unit's ancestry lists itself and every unit above it). One statement; empty for a person without such a role.
 */
export async function unitsReachedBy(db: Db, userId: string, roles: readonly UnitRole[]): Promise<string[]> {
  if (roles.length === 0) return [];
  return unitIdsUnder(
    db,
    sql`array(select unit_id from unit_roles where user_id = ${userId} and role = any(${sql.val([...roles])}::text[]))`,
  );
}

export interface UnitRoleHolder {
  username: string;
  fullName: string;
  role: UnitRole;
  unitCode: string;
  grantedAt: Date;
}

/** Everyone holding a unit role, for `operator list`. */
export async function listUnitRoleHolders(db: Db): Promise<UnitRoleHolder[]> {
  const rows = await db
    .selectFrom("unit_roles")
    .innerJoin("users", "users.id", "unit_roles.user_id")
    .innerJoin(unitNames(db).as("unit"), "unit.id", "unit_roles.unit_id")
    .select(["users.username", "users.full_name", "unit_roles.role", "unit.code", "unit_roles.granted_at"])
    .orderBy("users.username")
    .orderBy("unit.code")
    .orderBy("unit_roles.role")
    .execute();
  return rows.map((row) => ({
    username: row.username,
    fullName: row.full_name,
    role: row.role,
    unitCode: row.code,
    grantedAt: row.granted_at,
  }));
}
