import { type Kysely, sql } from "kysely";
import type { Database, NewUser, User, UserUpdate } from "../db/schema.ts";
import { revokeOidcGrants } from "../oidc/access.ts";

export type Db = Kysely<Database>;

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
  await db.transaction().execute(async (tx) => {
    await tx.updateTable("users").set({ status: "disabled", updated_at: new Date() }).where("id", "=", id).execute();
    await tx.deleteFrom("sessions").where("user_id", "=", id).execute();
    await tx.deleteFrom("login_grants").where("user_id", "=", id).execute();
    await revokeOidcGrants(tx, { userId: id });
  });
}

export async function grantAccess(db: Db, userId: string, applicationId: string): Promise<void> {
  await db
    .insertInto("user_applications")
    .values({ user_id: userId, application_id: applicationId })
    .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
    .execute();
}

/** Ends the person's access to the application, and with it the application's OpenID Connect tokens for them. */
export async function revokeAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom("user_applications")
      .where("user_id", "=", userId)
      .where("application_id", "=", applicationId)
      .executeTakeFirst();
    await revokeOidcGrants(tx, { userId, clientId: applicationId });
    return Number(result.numDeletedRows) > 0;
  });
}
