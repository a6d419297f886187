// People as other areas' list statements read them (issue 76): the rows of who may sign in, lent as a subquery or
// read here with the caller's test, so only this area names the users table.
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { excludedPeople, peopleAllowed } from "../access/rules.ts";
import { affiliationsColumn } from "../people/fragments.ts";

/** People who may sign in (active, not erased), as an SQL subquery of `id` and `username`. */
export function activePeople(): RawBuilder<unknown> {
  return sql`(select users.id, users.username from users where users.status = 'active' and users.anonymised_at is null)`;
}

/**
 * Everyone who may sign in (or those of `ids` who may), with their affiliations, by username (the LDAP directory's
 * people; `ids` when one person's change is synced alone).
 */
export async function activePeopleWithAffiliations(db: Db, ids?: readonly string[]) {
  if (ids?.length === 0) return [];
  return db
    .selectFrom("users")
    .select(["id", "username", "full_name", "email"])
    .select(affiliationsColumn(sql.ref("users.id")).as("affiliations"))
    .where("status", "=", "active")
    .where("anonymised_at", "is", null)
    .$if(ids !== undefined, (query) => query.where("id", "in", [...(ids ?? [])]))
    .orderBy("username")
    .execute();
}

/** The usernames of the people who may sign in and pass `test` (an SQL test of their id), by username. */
export async function activeUsernamesWhere(
  db: Db,
  test: (userId: RawBuilder<unknown>) => RawBuilder<boolean>,
): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select("username")
    .where("status", "=", "active")
    .where("anonymised_at", "is", null)
    .where(test(sql.ref("users.id")))
    .orderBy("username")
    .execute();
  return rows.map((row) => row.username);
}

/** People's rows as a subquery another area joins by id (a guest and their sponsor on the guests' lists). */
export function peopleRows(db: Db) {
  return db
    .selectFrom("users")
    .select([
      "users.id",
      "users.full_name",
      "users.email",
      "users.username",
      "users.tax_id",
      "users.password_hash",
      "users.anonymised_at",
    ]);
}

/** How many active people the application's rules, grants and exclusions let in now (for the operator's eye). */
export async function countPeopleWithAccess(db: Db, applicationId: string): Promise<number> {
  const result = await sql<{ people: string }>`select count(*) as people from ${peopleAllowed(applicationId)} allowed
    join users on users.id = allowed.user_id and users.status = 'active'`.execute(db);
  return Number(result.rows[0]?.people ?? 0);
}

/** The people excluded from the application by name, by username. */
export function listExclusions(db: Db, applicationId: string) {
  return db
    .selectFrom("users")
    .select(["users.id", "users.username", "users.full_name as fullName"])
    .where(sql<boolean>`users.id in ${excludedPeople(applicationId)}`)
    .orderBy("users.username")
    .limit(500)
    .execute();
}

/** A person found by id, e-mail or username (a bulk grant's lines, model/access/bulk-grant.ts). */
export interface FoundPerson {
  id: string;
  status: "active" | "disabled";
  username: string;
  email: string | null;
}

/**
 * The people these ids, e-mails and usernames name (the last two lower-cased), oldest account first, keyed
 * `id:…`, `username:…` and `email:…`. Two people with one address: the earlier account answers to it, as sign-in
 * by e-mail does not exist.
 */
export async function findPeopleByKeys(
  db: Db,
  keys: { ids: readonly string[]; emails: readonly string[]; usernames: readonly string[] },
): Promise<Map<string, FoundPerson>> {
  const conditions = [
    keys.ids.length ? sql`id in (${sql.join([...keys.ids])})` : undefined,
    keys.emails.length ? sql`lower(email) in (${sql.join([...keys.emails])})` : undefined,
    keys.usernames.length ? sql`lower(username) in (${sql.join([...keys.usernames])})` : undefined,
  ].filter((condition) => condition !== undefined);
  const found = new Map<string, FoundPerson>();
  if (conditions.length === 0) return found;
  const rows = await sql<FoundPerson>`select id, status, username, email from users
    where ${sql.join(conditions, sql` or `)} order by created_at`.execute(db);
  for (const row of rows.rows) {
    found.set(`id:${row.id}`, row);
    found.set(`username:${row.username.toLowerCase()}`, row);
    if (row.email && !found.has(`email:${row.email.toLowerCase()}`)) found.set(`email:${row.email.toLowerCase()}`, row);
  }
  return found;
}

/** People's names and addresses as a subquery another area joins by id (an application's owners as its publisher). */
export function peopleContacts(db: Db) {
  return db.selectFrom("users").select(["users.id", "users.full_name", "users.email", "users.verified_email"]);
}
