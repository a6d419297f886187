// What other areas' statements read of people's records and units, lent as SQL pieces or subqueries (issue 76):
// the caller keeps its one statement, and only this area names person_affiliations and units.
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** The person's affiliations (each once), as an SQL array column of the caller's statement. */
export function affiliationsColumn(userId: RawBuilder<unknown>): RawBuilder<string[]> {
  return sql<string[]>`coalesce((select array_agg(distinct affiliation) from person_affiliations
    where person_affiliations.user_id = ${userId}), '{}')`;
}

/**
 * Every unit by code, with the usernames of the `people` (an SQL subquery of `id` and `username`, from their owner)
 * holding a record in it in one of `statuses`: the LDAP directory's unit groups, in one statement.
 */
export function unitsWithMembers(db: Db, statuses: readonly string[], people: RawBuilder<unknown>) {
  return db
    .selectFrom("units")
    .select(["id", "code", "name_uk", "name_en"])
    .select(
      sql<string[]>`coalesce((select array_agg(distinct member.username order by member.username)
        from person_affiliations record join ${people} member on member.id = record.user_id
        where record.unit_id = units.id and record.status = any(${[...statuses]})), '{}')`.as("members"),
    )
    .orderBy("code")
    .execute();
}
