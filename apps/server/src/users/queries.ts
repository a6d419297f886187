import { sql } from "kysely";
import { revokeOidcGrants } from "../access/oidc-grants.ts";
import { forgetSamlConsents } from "../access/saml-consents.ts";
import type { Db, NewUser, User, UserUpdate } from "../db/schema.ts";

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
  await tx.deleteFrom("sessions").where("user_id", "=", id).execute();
  await tx.deleteFrom("login_grants").where("user_id", "=", id).execute();
  await revokeOidcGrants(tx, { userId: id });
  await forgetSamlConsents(tx, { userId: id });
}
