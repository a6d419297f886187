import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { grantsSnapshot } from "../access/applications.ts";
import { recordsSnapshot } from "../people/fragments.ts";

// One statement per person or per batch of people: an import compares a line's person before and
// after, and four queries a person made that comparison most of an import's time. The records and grants are
// their owners' pieces of the statement (people/fragments.ts, access/applications.ts).
const snapshotOf = (id: ReturnType<typeof sql.ref>) => sql<string>`json_build_array(
  (select json_build_array(u.username, u.full_name, u.email, u.tax_id, u.student_id, u.employee_id, u.password_hash, u.status)
     from users u where u.id = ${id}),
  ${recordsSnapshot(id)},
  ${grantsSnapshot(id)}
)::text`;

/**
 * What an import line can change about a person, as one comparable string: their fields, their
 * primary records and their applications. Equal before and after a line means "unchanged";
 * timestamps and the writer's name are left out, since every write touches those.
 */
export async function personSnapshot(db: Db, userId: string): Promise<string> {
  return (await personSnapshots(db, [userId])).get(userId) ?? "";
}

/** The snapshots of many people in one statement, by id; an id with no person is absent. */
export async function personSnapshots(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("users as person")
    .select(["person.id", snapshotOf(sql.ref("person.id")).as("snapshot")])
    .where("person.id", "in", userIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.snapshot]));
}
