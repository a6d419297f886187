import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";

/** A promise and the function that settles it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * The embedded database is one PostgreSQL session, which Kysely's PGlite driver hands to every caller: one
 * request's transaction must not take in another request's statements, nor another transaction's commit. Kysely
 * holds the session for one use at a time (its PGlite adapter declares no multiple connections), so a statement
 * sent meanwhile waits for the transaction to end, as a second connection to PostgreSQL would wait for its locks.
 */
describe("transactions on the embedded database", () => {
  let database: TestDatabase;
  const kept = async () =>
    (await sql<{ n: number }>`select n from pglite_probe order by n`.execute(database.handle.db)).rows.map(
      (row) => row.n,
    );

  // A database from the worker's pool (migrated, already started) instead of a new cluster made for this file alone
  // (issue 75: most of the file's 12 CPU-seconds): the probe table is dropped before it goes back, so the pool finds
  // the schema it lent and lends it again.
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await sql`create table pglite_probe (n integer primary key)`.execute(database.handle.db);
  });
  beforeEach(async () => {
    await sql`delete from pglite_probe`.execute(database.handle.db);
  });
  afterAll(async () => {
    await sql`drop table if exists pglite_probe`.execute(database.handle.db);
    await database.dispose();
  });

  it("keeps a write sent while another request's transaction is open out of it: rolled back, the write stays", async () => {
    const { db } = database.handle;
    const inside = gate();
    const decide = gate();
    const failing = db.transaction().execute(async (tx) => {
      await sql`insert into pglite_probe values (1)`.execute(tx);
      inside.open();
      await decide.opened;
      throw new Error("the transaction's request failed");
    });
    await inside.opened;
    const write = sql`insert into pglite_probe values (2)`.execute(db);
    decide.open();
    await expect(failing).rejects.toThrow("the transaction's request failed");
    await write;
    expect(await kept()).toEqual([2]);
  });

  it("commits two transactions begun side by side each with its own rows", async () => {
    const { db } = database.handle;
    const firstBegun = gate();
    const finishFirst = gate();
    const first = db.transaction().execute(async (tx) => {
      await sql`insert into pglite_probe values (10)`.execute(tx);
      firstBegun.open();
      await finishFirst.opened;
      await sql`insert into pglite_probe values (11)`.execute(tx);
    });
    await firstBegun.opened;
    const second = db.transaction().execute(async (tx) => {
      await sql`insert into pglite_probe values (20)`.execute(tx);
    });
    finishFirst.open();
    await Promise.all([first, second]);
    expect(await kept()).toEqual([10, 11, 20]);
  });

  it("rolls back a transaction whose statement failed, and the next one commits", async () => {
    const { db } = database.handle;
    const failed = db.transaction().execute(async (tx) => {
      await sql`insert into pglite_probe values (30)`.execute(tx);
      await sql`insert into pglite_probe values (30)`.execute(tx);
    });
    await expect(failed).rejects.toThrow(/duplicate key/);
    await db.transaction().execute((tx) => sql`insert into pglite_probe values (31)`.execute(tx));
    expect(await kept()).toEqual([31]);
  });
});
