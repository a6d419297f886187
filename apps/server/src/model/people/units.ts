import { type RawBuilder, sql } from "kysely";
import type { Unit, UnitKind } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";

/** Units (faculties, departments, groups): one entity per thing, named by a stable code in both languages. */

export interface UnitInput {
  code: string;
  kind: UnitKind;
  nameUk: string;
  nameEn?: string;
  /** The parent unit's code; null makes the unit a root, undefined leaves the parent as it is. */
  parentCode?: string | null;
}

export type UnitErrorReason = "unknown_parent" | "cycle" | "in_use" | "unknown_unit";

export class UnitError extends Error {
  readonly reason: UnitErrorReason;
  constructor(reason: UnitErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export function findUnitByCode(db: Db, code: string): Promise<Unit | undefined> {
  return db.selectFrom("units").selectAll().where(sql<string>`lower(code)`, "=", code.toLowerCase()).executeTakeFirst();
}

export function findUnitById(db: Db, id: string): Promise<Unit | undefined> {
  return db.selectFrom("units").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Marks a unit changed now (its version, the SCIM ETag, follows): a pushed group's members changed. */
export function touchUnit(db: Db, id: string, now: Date): Promise<Unit> {
  return db.updateTable("units").set({ updated_at: now }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** Locks the units' rows, in id order, until the caller's transaction ends. */
export async function lockUnits(db: Db, unitIds: readonly string[]): Promise<void> {
  if (unitIds.length === 0) return;
  await db
    .selectFrom("units")
    .select("id")
    .where("id", "in", [...unitIds])
    .orderBy("id")
    .forUpdate()
    .execute();
}

export async function unitsByIds(db: Db, ids: readonly string[]): Promise<Unit[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("units")
    .selectAll()
    .where("id", "in", [...new Set(ids)])
    .orderBy(sql`lower(code)`)
    .execute();
}

/**
 * Units' codes and names as a subquery another area joins by id (a unit role's list, a guest's units): this area
 * names its table, the caller keeps its one statement.
 */
export function unitNames(db: Db) {
  return db.selectFrom("units").select(["units.id", "units.code", "units.name_uk", "units.name_en"]);
}

/** The ids of the units at or below any of `roots` (an SQL array of unit ids), in one statement. */
export async function unitIdsUnder(db: Db, roots: RawBuilder<unknown>): Promise<string[]> {
  const rows = await db
    .selectFrom("units")
    .select("units.id")
    .where(sql<boolean>`units.ancestry && ${roots}`)
    .execute();
  return rows.map((row) => row.id);
}

export function listUnits(db: Db): Promise<Unit[]> {
  return db.selectFrom("units").selectAll().orderBy(sql`lower(code)`).execute();
}

async function parentIdFor(
  db: Db,
  code: string | null | undefined,
  selfId?: string,
): Promise<string | null | undefined> {
  if (code === undefined || code === null) return code;
  const parent = await findUnitByCode(db, code);
  if (!parent) throw new UnitError("unknown_parent", `no unit '${code}'`);
  if (selfId && (parent.id === selfId || parent.ancestry.includes(selfId))) {
    throw new UnitError("cycle", `unit '${code}' lies under the unit being changed`);
  }
  return parent.id;
}

/** Creates the unit named by its code, or changes the one that has it; ancestries follow at once. */
export async function upsertUnit(db: Db, input: UnitInput): Promise<{ unit: Unit; created: boolean }> {
  const existing = await findUnitByCode(db, input.code);
  const parentId = await parentIdFor(db, input.parentCode, existing?.id);
  let id: string;
  if (existing) {
    await db
      .updateTable("units")
      .set({
        kind: input.kind,
        name_uk: input.nameUk,
        ...(input.nameEn === undefined ? {} : { name_en: input.nameEn }),
        ...(parentId === undefined ? {} : { parent_id: parentId }),
        updated_at: new Date(),
      })
      .where("id", "=", existing.id)
      .execute();
    id = existing.id;
  } else {
    const row = await db
      .insertInto("units")
      .values({
        code: input.code,
        kind: input.kind,
        name_uk: input.nameUk,
        name_en: input.nameEn ?? "",
        parent_id: parentId ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    id = row.id;
  }
  await refreshAncestries(db);
  const unit = await findUnitById(db, id);
  if (!unit) throw new UnitError("unknown_unit", `no unit '${input.code}'`);
  return { unit, created: !existing };
}

/**
 * Removes a unit no record, rule or sub-unit names. `namedElsewhere` tests the unit's id against what other areas
 * keep (access's rules: model/access/rules.ts, rulesNameUnit), in the same statement; this area imports no other.
 */
export async function removeUnit(
  db: Db,
  code: string,
  namedElsewhere: (unitId: string) => RawBuilder<boolean>,
): Promise<void> {
  const unit = await findUnitByCode(db, code);
  if (!unit) throw new UnitError("unknown_unit", `no unit '${code}'`);
  const used = await sql<{ used: boolean }>`select
      exists (select 1 from units where parent_id = ${unit.id})
      or exists (select 1 from student_records where unit_id = ${unit.id})
      or exists (select 1 from employee_positions where unit_id = ${unit.id})
      or ${namedElsewhere(unit.id)} as used`.execute(db);
  if (used.rows[0]?.used) throw new UnitError("in_use", `unit '${code}' has sub-units, records or rules`);
  await db.deleteFrom("units").where("id", "=", unit.id).execute();
}

// The tree is small (hundreds of units, a few levels): recomputing every ancestry in one statement on a
// change is simpler and safer than patching a subtree.
async function refreshAncestries(db: Db): Promise<void> {
  await sql`with recursive tree (id, ancestry) as (
      select id, array[id] from units where parent_id is null
      union all
      select u.id, tree.ancestry || u.id from units u join tree on u.parent_id = tree.id
    )
    update units set ancestry = tree.ancestry from tree where units.id = tree.id and units.ancestry <> tree.ancestry`.execute(
    db,
  );
}

/** Lets (or stops letting) a unit admin's review approval be final in the unit and every unit below it (issue 79). */
export async function setReviewsFinal(db: Db, code: string, final: boolean): Promise<Unit> {
  const unit = await findUnitByCode(db, code);
  if (!unit) throw new UnitError("unknown_unit", `no unit '${code}'`);
  return setReviewsFinalOf(db, unit.id, final);
}

/** The same by the unit's id (the console's call); throws when no unit has it. */
export function setReviewsFinalOf(db: Db, unitId: string, final: boolean): Promise<Unit> {
  return db
    .updateTable("units")
    .set({ reviews_final: final, updated_at: new Date() })
    .where("id", "=", unitId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The audit row of a change of who may make an application live (`unit reviews`, or the console): it names the unit,
 * as a role grant does. `via` says which surface made it.
 */
export function reviewsFinalAuditEvent(unit: Unit, via: "cli" | "console") {
  return {
    type: "unit_reviews_set",
    result: "success",
    reason: via,
    unitId: unit.id,
    details: { code: unit.code, reviewsFinal: unit.reviews_final },
  } as const;
}

/** Whether a unit admin's approval is final for an application of this unit: it or a unit above it says so. */
export async function reviewsFinalIn(db: Db, unitId: string): Promise<boolean> {
  const unit = await findUnitById(db, unitId);
  if (!unit) return false;
  const final = await db
    .selectFrom("units")
    .select("id")
    .where("id", "in", [...unit.ancestry, unit.id])
    .where("reviews_final", "=", true)
    .executeTakeFirst();
  return final !== undefined;
}
