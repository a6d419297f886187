import { sql } from "kysely";
import type { Db, NewUser, User, UserUpdate } from "../../platform/db/schema.ts";

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

/**
 * Whether the person holds a console role, university-wide or in a unit: SCIM clients set no such person's password
 * (user-password.ts), and no unit role acts on them (issue 79).
 */
export async function holdsConsoleRole(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("operator_roles")
    .select("user_id")
    .where("user_id", "=", userId)
    .unionAll(db.selectFrom("unit_roles").select("user_id").where("user_id", "=", userId))
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores a new password hash (a change, a reset or a first password), stamped by the caller's clock. */
export async function storePasswordHash(db: Db, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ password_hash: passwordHash, updated_at: now })
    .where("id", "=", userId)
    .execute();
}
