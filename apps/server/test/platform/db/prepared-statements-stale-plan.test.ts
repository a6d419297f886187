import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

/**
 * A migration that adds a column while an instance serves (a rolling upgrade) makes that instance's
 * prepared `select *` statements stale; PostgreSQL refuses them ("cached plan must not change result
 * type"). 0.2.0 failed every such query until restarted; now the statement is prepared again.
 */
describe.skipIf(!databaseKinds.includes("postgres"))("a prepared statement a migration made stale (postgres)", () => {
  let database: TestDatabase;
  const read = () => sql<Record<string, unknown>>`select * from stale_plan_probe where id = ${1}`;
  beforeAll(async () => {
    database = await createTestDatabase("postgres", { migrated: false });
    await database.handle.scriptTransaction((tx) =>
      tx.exec(
        "create table stale_plan_probe (id integer primary key, name text); insert into stale_plan_probe values (1, 'a')",
      ),
    );
  });
  afterAll(() => database.dispose());

  const addColumn = (name: string) =>
    database.handle.scriptTransaction((tx) =>
      tx.exec(`alter table stale_plan_probe add column ${name} text default 'x'`),
    );

  it("answers with the new column outside a transaction, without a failed query", async () => {
    // Prepared on every connection the pool hands out for a run of queries, then the migration commits.
    for (let i = 0; i < 5; i++) expect((await read().execute(database.handle.db)).rows).toHaveLength(1);
    await addColumn("added_outside");
    for (let i = 0; i < 5; i++) {
      expect((await read().execute(database.handle.db)).rows[0]).toMatchObject({ id: 1, added_outside: "x" });
    }
  });

  it("fails only the transaction that met it; the next use is prepared afresh", async () => {
    await addColumn("added_inside");
    const inside = database.handle.db.transaction().execute((tx) => read().execute(tx));
    await expect(inside).rejects.toThrow("cached plan must not change result type");
    expect((await read().execute(database.handle.db)).rows[0]).toMatchObject({ added_inside: "x" });
    const again = await database.handle.db.transaction().execute((tx) => read().execute(tx));
    expect(again.rows[0]).toMatchObject({ added_inside: "x" });
  });
});
