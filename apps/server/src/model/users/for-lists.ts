// People as other areas' list statements read them (issue 76): the rows of who may sign in, lent as a subquery or
// read here with the caller's test, so only this area names the users table.
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { affiliationsColumn } from "../people/fragments.ts";

/** People who may sign in (active, not erased), as an SQL subquery of `id` and `username`. */
export function activePeople(): RawBuilder<unknown> {
  return sql`(select users.id, users.username from users where users.status = 'active' and users.anonymised_at is null)`;
}

/** Everyone who may sign in, with their affiliations, by username (the LDAP directory's people). */
export function activePeopleWithAffiliations(db: Db) {
  return db
    .selectFrom("users")
    .select(["id", "username", "full_name", "email"])
    .select(affiliationsColumn(sql.ref("users.id")).as("affiliations"))
    .where("status", "=", "active")
    .where("anonymised_at", "is", null)
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
