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
 * holding a record in it in one of `statuses`: the LDAP directory's unit groups, in one statement; with `codes`, only
 * those units (one person's change touches a few).
 */
export async function unitsWithMembers(
  db: Db,
  statuses: readonly string[],
  people: RawBuilder<unknown>,
  codes?: readonly string[],
) {
  if (codes?.length === 0) return [];
  return db
    .selectFrom("units")
    .select(["id", "code", "name_uk", "name_en"])
    .select(
      sql<string[]>`coalesce((select array_agg(distinct member.username order by member.username)
        from person_affiliations record join ${people} member on member.id = record.user_id
        where record.unit_id = units.id and record.status = any(${[...statuses]})), '{}')`.as("members"),
    )
    .$if(codes !== undefined, (query) => query.where("code", "in", [...(codes ?? [])]))
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

/** A unit's name as a reader of the language sees it: English where the operator gave it. */
const unitName = (english: boolean) => (english ? sql`coalesce(nullif(u.name_en, ''), u.name_uk)` : sql`u.name_uk`);

/** The units whose ids `unitIds` selects, as a JSON array of `{ id, name }` by Ukrainian name (a guest's units). */
export function unitsJson(unitIds: RawBuilder<unknown>, english: boolean): RawBuilder<{ id: string; name: string }[]> {
  return sql<
    { id: string; name: string }[]
  >`coalesce((select json_agg(json_build_object('id', u.id, 'name', ${unitName(english)})
    order by u.name_uk) from units u where u.id in ${unitIds}), '[]'::json)`;
}

/** Whether the unit (an id of the caller's statement) is `unitId` or lies below it. */
export function unitWithin(unit: RawBuilder<unknown>, unitId: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from units u where u.id = ${unit}
    and (u.id = ${unitId}::uuid or ${unitId}::uuid = any(u.ancestry)))`;
}

/**
 * The units of the person's employee records (id and names, by Ukrainian name), those at or below a unit of
 * `withinCodes` when it names any: where a sponsor may attach a guest (model/guests/sponsors.ts).
 */
export function employeeUnits(db: Db, userId: string, withinCodes: readonly string[]) {
  let query = db
    .selectFrom("person_affiliations as record")
    .innerJoin("units as unit", "unit.id", "record.unit_id")
    .select(["unit.id", "unit.name_uk", "unit.name_en"])
    .distinct()
    .where("record.user_id", "=", userId)
    .where("record.affiliation", "=", "employee");
  if (withinCodes.length > 0) {
    query = query.where(
      sql<boolean>`exists (select 1 from units allowed where allowed.code = any(${[...withinCodes]}::text[])
        and (allowed.id = unit.id or allowed.id = any(unit.ancestry)))`,
    );
  }
  return query.orderBy("unit.name_uk").execute();
}

/** Whether the person has an employee affiliation (an active or on-leave position). */
export async function hasEmployeeRecord(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("person_affiliations")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("affiliation", "=", "employee")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * People's affiliation rows (user, affiliation, status, unit) with their unit's ancestry (the unit and those above
 * it), as an SQL subquery access's rules join (model/access): the planner folds it into the caller's statement.
 */
export function affiliationsWithAncestry(): RawBuilder<unknown> {
  return sql`(select record.user_id, record.affiliation, record.status, record.unit_id, record_unit.ancestry
    from person_affiliations record left join units record_unit on record_unit.id = record.unit_id)`;
}

/** The codes of the units where any of `ids` holds a record in one of `statuses` (the LDAP groups they belong in). */
export async function currentUnitCodesOf(
  db: Db,
  ids: readonly string[],
  statuses: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("person_affiliations as record")
    .innerJoin("units", "units.id", "record.unit_id")
    .select("units.code")
    .distinct()
    .where("record.user_id", "in", [...ids])
    .where(sql<boolean>`record.status = any(${[...statuses]})`)
    .execute();
  return rows.map((row) => row.code);
}
