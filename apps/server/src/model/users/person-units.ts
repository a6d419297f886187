import { type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * The person has a student record or a position in one of the units (a unit role's reach, issue 79): the one test
 * of "in these units" that the people search, the list of who may use an application and the unit's audit share.
 * It reads `users.unit_ids`, which the database keeps from the person's records (migration 0760), so the test is
 * of the person's own row: the search's index drives the statement, and a count can join the unit's GIN index to
 * the trigram one, where a join to the records was sized from a guess of the typed pattern.
 *
 * `person`: the id of someone the statement names (an audit row's person); without it, the row of `users` the
 * statement reads, and `indexed: false` writes the test so that the GIN index cannot serve it (for a statement
 * that walks another index in order and stops when its page is full).
 */
export function personInUnits(
  unitIds: readonly string[],
  person: RawBuilder<unknown> | { indexed: boolean } = { indexed: true },
): RawBuilder<SqlBool> {
  const units = sql`${sql.val([...unitIds])}::uuid[]`;
  if ("indexed" in person) {
    return person.indexed
      ? sql<SqlBool>`users.unit_ids && ${units}`
      : sql<SqlBool>`(users.unit_ids || '{}'::uuid[]) && ${units}`;
  }
  return sql<SqlBool>`exists (select 1 from users in_units where in_units.id = ${person} and in_units.unit_ids && ${units})`;
}
