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

/**
 * The person's student records and positions as two JSON arrays (id, unit, status, primary; by id), for a
 * comparable snapshot of what an import line may change (model/users/snapshot.ts): one statement per batch.
 */
export function recordsSnapshot(userId: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select coalesce(json_agg(json_build_array(s.student_id, s.unit_id, s.status, s.is_primary) order by s.student_id), '[]'::json)
     from student_records s where s.user_id = ${userId}),
  (select coalesce(json_agg(json_build_array(p.employee_id, p.unit_id, p.status, p.is_primary) order by p.employee_id), '[]'::json)
     from employee_positions p where p.user_id = ${userId})`;
}
