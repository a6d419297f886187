import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { Database, Db, NewUser, User, UserUpdate } from "../../platform/db/schema.ts";
import { personRolesColumns } from "../people/profile.ts";

/** The person with this username (any case), as a query another area's statement can read from in one round trip. */
export function userByUsernameQuery(db: Db, username: string) {
  return db.selectFrom("users").selectAll().where(sql<string>`lower(username)`, "=", username.toLowerCase());
}

export function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return userByUsernameQuery(db, username).executeTakeFirst();
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

/** A person's id by their username exactly as written (the audit search's filter); undefined when no one holds it. */
export async function userIdByExactUsername(db: Db, username: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
  return row?.id;
}

/** People's usernames and full names by id, for lists that name them (the audit trail); the erased are left out. */
export async function peopleNamesByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { username: string; fullName: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "username", "full_name"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, { username: row.username, fullName: row.full_name }]));
}

/** People's mail addresses (given and confirmed) and the language of their last sign-in, to write to them. */
export function mailContactsOf<Table extends keyof Database>(
  db: Db,
  ids: SelectQueryBuilder<Database, Table, { user_id: string }>,
): Promise<Pick<User, "email" | "verified_email" | "language">[]> {
  return db.selectFrom("users").select(["email", "verified_email", "language"]).where("id", "in", ids).execute();
}

/**
 * The one active person with exactly this username or e-mail address (any case), or undefined: nobody, someone
 * disabled, or an address several people share.
 */
export async function onlyActivePersonNamed(db: Db, named: string) {
  const column = named.includes("@") ? sql<string>`lower(email)` : sql<string>`lower(username)`;
  const rows = await db
    .selectFrom("users")
    .select(["id", "email", "verified_email", "language"])
    .where(column, "=", named.toLowerCase())
    .where("status", "=", "active")
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/** Locks the person's row for the caller's transaction (their passwords' count and names stay theirs); throws when gone. */
export async function lockPerson(tx: Db, userId: string): Promise<void> {
  await tx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirstOrThrow();
}

/** The person's whole row, locked for the caller's transaction (two erasures at once erase once); undefined when gone. */
export function lockedPerson(tx: Db, userId: string): Promise<User | undefined> {
  return tx.selectFrom("users").selectAll().where("id", "=", userId).forUpdate().executeTakeFirst();
}

/**
 * The person, whether they may use an application now (`allowed`: model/admission's check, lent as an SQL
 * expression) and (with `withRoles`: OpenID Connect's `kpi` scope's claims need them) their campus roles' columns,
 * all in one statement; undefined when there is no such person.
 */
export function personWithAccessAnswer(db: Db, userId: string, allowed: RawBuilder<boolean>, withRoles: boolean) {
  return db
    .selectFrom("users")
    .selectAll()
    .select(allowed.as("allowed"))
    .$if(withRoles, (query) => {
      const columns = personRolesColumns(userId);
      return query.select([columns.affiliations.as("affiliations"), columns.records.as("records")]);
    })
    .where("id", "=", userId)
    .executeTakeFirst();
}

/**
 * The people whose ids another area's statement answers (its own table's `user_id`: a Google link, a bank's
 * document), read with it in one statement: that area names only its table, this one only `users`.
 */
export function usersIn<Table extends keyof Database>(
  db: Db,
  ids: SelectQueryBuilder<Database, Table, { user_id: string }>,
): Promise<User[]> {
  return db.selectFrom("users").selectAll().where("id", "in", ids).execute();
}

/** The person holding this tax id (the bank's answer names it), whatever their status. */
export function findUserByTaxId(db: Db, taxId: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("tax_id", "=", taxId).executeTakeFirst();
}
