import type { Db } from "../../platform/db/schema.ts";

/** The records SCIM's view of these people shows, read in three statements (and the units' codes) whatever their number. */
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
    db.selectFrom("units").select(["id", "code"]).execute(),
  ]);
  return { students, positions, affiliations, units };
}
