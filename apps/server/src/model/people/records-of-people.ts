import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** The records of these people (SCIM's view shows them), read in three statements (and the units' codes) whatever their number. */
export async function recordsOfPeople(db: Db, ids: string[]) {
  const [students, positions, affiliations, units] = await Promise.all([
    db.selectFrom("student_records").selectAll().where("user_id", "in", ids).orderBy("created_at").execute(),
    db.selectFrom("employee_positions").selectAll().where("user_id", "in", ids).orderBy("created_at").execute(),
    db
      .selectFrom("person_affiliations")
      .select(["user_id", "affiliation"])
      .distinct()
      .where("user_id", "in", ids)
      .execute(),
    unitCodes(db),
  ]);
  return { students, positions, affiliations, units };
}

/** The units with these codes (lower case), by lower-cased code: the ones a pushed person's records name. */
export async function unitIdsByCode(db: Db, wanted: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("units")
    .select(["id", "code"])
    .where(sql<string>`lower(code)`, "in", wanted)
    .execute();
  return new Map(rows.map((row) => [row.code.toLowerCase(), row.id]));
}

/** Every unit's code, by id (a unit's parent is shown by its code). */
export function unitCodes(db: Db): Promise<{ id: string; code: string }[]> {
  return db.selectFrom("units").select(["id", "code"]).execute();
}

/**
 * The people each of these units holds through a current record (studying, on academic leave, employed, on
 * leave): its members as SCIM's groups show them, each person once per unit.
 */
export async function currentMembersOfUnits(
  db: Db,
  unitIds: readonly string[],
): Promise<{ unit_id: string; user_id: string }[]> {
  const { rows } = await sql<{ unit_id: string; user_id: string }>`select distinct r.unit_id, r.user_id
    from (select unit_id, user_id from student_records where status in ('studying', 'academic_leave')
          union all select unit_id, user_id from employee_positions where status in ('active', 'on_leave')) r
    where r.unit_id = any(${unitIds}::uuid[])`.execute(db);
  return rows;
}
