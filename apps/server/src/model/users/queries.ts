import { sql } from "kysely";
import type { Db, NewUser, User, UserUpdate } from "../../platform/db/schema.ts";
import { revokeOidcGrants } from "../access/oidc-grants.ts";
import { forgetSamlConsents } from "../access/saml-consents.ts";
import { forgetTicketConsents } from "../access/ticket-consents.ts";

export function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export function insertUser(db: Db, user: NewUser): Promise<User> {
  return db.insertInto("users").values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(db: Db, id: string, changes: UserUpdate): Promise<User | undefined> {
  return db
    .updateTable("users")
    .set({ ...changes, updated_at: new Date() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

export function listUsers(db: Db): Promise<User[]> {
  return db.selectFrom("users").selectAll().orderBy(sql`lower(username)`).execute();
}

/** A disabled person loses every session and every application's OpenID Connect tokens at once. */
export async function disableUser(db: Db, id: string): Promise<void> {
  await db.transaction().execute((tx) => disableUserWithin(tx, id));
}

/** disableUser's statements, for a caller that already holds a transaction (SCIM's writes). */
export async function disableUserWithin(tx: Db, id: string): Promise<void> {
  await tx.updateTable("users").set({ status: "disabled", updated_at: new Date() }).where("id", "=", id).execute();
  await signOutEverywhere(tx, id);
  await forgetSamlConsents(tx, { userId: id });
  await forgetTicketConsents(tx, { userId: id });
}

/**
 * Ends every session of the person, the login grants not yet exchanged and every application's OpenID
 * Connect tokens (the provider's sessions follow the KPI ID session they started in); how many sessions.
 * For an operator's command, which has no provider at hand to send back-channel logout tokens.
 */
export async function signOutEverywhere(db: Db, id: string): Promise<number> {
  const ended = await db.deleteFrom("sessions").where("user_id", "=", id).executeTakeFirst();
  await db.deleteFrom("login_grants").where("user_id", "=", id).execute();
  await revokeOidcGrants(db, { userId: id });
  return Number(ended.numDeletedRows);
}

/** Whether the person holds a console role: SCIM clients set no such person's password (user-password.ts). */
export async function holdsConsoleRole(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("operator_roles").select("role").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}
