import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personInUnits } from "../../../src/model/users/person-units.ts";
import type { Db } from "../../../src/platform/db/schema.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

// users.unit_ids (migration 0760) is kept by the database's triggers from the records: what the scoped people
// search, who may use an application and a unit's audit test (personInUnits).
describe.each(databaseKinds)("a person's units on their own row (%s)", (kind) => {
  let database: TestDatabase;
  let db: Db;
  const units: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.handle.db;
    for (const code of ["a", "b", "c"] as const) {
      const unit = await db
        .insertInto("units")
        .values({ code: `U-${code}`, kind: "department", name_uk: code })
        .returning("id")
        .executeTakeFirstOrThrow();
      units[code] = unit.id;
    }
  });
  afterAll(() => database.dispose());

  const addPerson = async (username: string) =>
    (await db.insertInto("users").values({ username, full_name: username }).returning("id").executeTakeFirstOrThrow())
      .id;
  const unitsOf = async (id: string) =>
    (await db.selectFrom("users").select("unit_ids").where("id", "=", id).executeTakeFirstOrThrow()).unit_ids;
  const sorted = (...ids: string[]) => [...ids].sort();
  const addStudent = (userId: string, unitId: string | null) =>
    db
      .insertInto("student_records")
      .values({ user_id: userId, unit_id: unitId, student_id: `S-${Math.random()}`, status: "studying", source: "csv" })
      .returning("id")
      .executeTakeFirstOrThrow();

  it("follows the records as they are added, moved to another unit or person, and removed", async () => {
    const olena = await addPerson("olena.units");
    const ivan = await addPerson("ivan.units");
    expect(await unitsOf(olena)).toEqual([]);

    const record = await addStudent(olena, units.a);
    await addStudent(olena, null);
    expect(await unitsOf(olena)).toEqual([units.a]);
    await db
      .insertInto("employee_positions")
      .values({
        user_id: olena,
        unit_id: units.b,
        employee_id: "E-1",
        position: "лаборант",
        status: "active",
        source: "csv",
      })
      .execute();
    expect(await unitsOf(olena)).toEqual(sorted(units.a, units.b));

    await db.updateTable("student_records").set({ unit_id: units.c }).where("id", "=", record.id).execute();
    expect(await unitsOf(olena)).toEqual(sorted(units.b, units.c));

    await db.updateTable("student_records").set({ user_id: ivan }).where("id", "=", record.id).execute();
    expect(await unitsOf(olena)).toEqual([units.b]);
    expect(await unitsOf(ivan)).toEqual([units.c]);

    await db.deleteFrom("employee_positions").where("user_id", "=", olena).execute();
    await db.deleteFrom("student_records").where("user_id", "in", [olena, ivan]).execute();
    expect(await unitsOf(olena)).toEqual([]);
    expect(await unitsOf(ivan)).toEqual([]);
  });

  it("answers whether the row read, or a person an id names, is in the units", async () => {
    const taras = await addPerson("taras.units");
    await addStudent(taras, units.b);
    const inRow = async (unitIds: string[]) =>
      (await db.selectFrom("users").select("id").where("id", "=", taras).where(personInUnits(unitIds)).execute())
        .length === 1;
    const byId = async (unitIds: string[]) =>
      (await sql<{ found: boolean }>`select ${personInUnits(unitIds, sql`${taras}::uuid`)} as found`.execute(db))
        .rows[0]?.found;
    expect(await inRow([units.a, units.b])).toBe(true);
    expect(await inRow([units.a, units.c])).toBe(false);
    expect(await byId([units.b])).toBe(true);
    expect(await byId([units.c])).toBe(false);
    expect(await byId([])).toBe(false);
  });
});
