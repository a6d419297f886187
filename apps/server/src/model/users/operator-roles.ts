import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db, OperatorRole } from "../../platform/db/schema.ts";

export const operatorRoles = ["admin", "helpdesk"] as const satisfies readonly OperatorRole[];

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (operatorRoles as readonly string[]).includes(value);
}

/**
 * Whether the person holds a console role, university-wide or in a unit (issue 79), as an SQL test of an id the
 * caller's statement names: GET /user reads it in the session's own statement (model/sessions/load.ts).
 */
export function holdsConsoleRole(userId: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select operator_roles.user_id from operator_roles where operator_roles.user_id = ${userId}
    union all select unit_roles.user_id from unit_roles where unit_roles.user_id = ${userId})`;
}

/** The console roles a person holds (none for almost everyone). */
export async function rolesOf(db: Db, userId: string): Promise<OperatorRole[]> {
  const rows = await db
    .selectFrom("operator_roles")
    .select("role")
    .where("user_id", "=", userId)
    .orderBy("role")
    .execute();
  return rows.map((row) => row.role);
}

/** Whether the person is the one admin left (the console would have no one to run it without them). */
export async function isOnlyAdmin(db: Db, userId: string): Promise<boolean> {
  const admins = await db.selectFrom("operator_roles").select("user_id").where("role", "=", "admin").execute();
  return admins.length === 1 && admins[0]?.user_id === userId;
}

/** Gives the role; true when the person did not hold it yet. */
export async function grantRole(db: Db, userId: string, role: OperatorRole): Promise<boolean> {
  const result = await db
    .insertInto("operator_roles")
    .values({ user_id: userId, role })
    .onConflict((conflict) => conflict.columns(["user_id", "role"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes the role away; true when the person held it. */
export async function revokeRole(db: Db, userId: string, role: OperatorRole): Promise<boolean> {
  const result = await db
    .deleteFrom("operator_roles")
    .where("user_id", "=", userId)
    .where("role", "=", role)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface Operator {
  username: string;
  fullName: string;
  role: OperatorRole;
  grantedAt: Date;
}

export async function listOperators(db: Db): Promise<Operator[]> {
  const rows = await db
    .selectFrom("operator_roles")
    .innerJoin("users", "users.id", "operator_roles.user_id")
    .select(["users.username", "users.full_name", "operator_roles.role", "operator_roles.granted_at"])
    .orderBy("users.username")
    .orderBy("operator_roles.role")
    .execute();
  return rows.map((row) => ({
    username: row.username,
    fullName: row.full_name,
    role: row.role,
    grantedAt: row.granted_at,
  }));
}

/** Every console role of the person (erasure); how many there were. */
export async function revokeAllRoles(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("operator_roles").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
