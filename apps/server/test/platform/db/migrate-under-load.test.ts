import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "../../../src/platform/db/migrate.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

/**
 * A migration run while instances serve (the rolling upgrade) locks every table at once, waiting at most half a
 * second and trying again, instead of deadlocking with a request that holds one table and wants another.
 */
describe.skipIf(!databaseKinds.includes("postgres"))("migrating while a transaction holds a table (postgres)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres", { migrated: false });
    await migrate(
      database.handle,
      listMigrations().filter((migration) => migration.version <= 310),
    );
  });
  afterAll(() => database.dispose());

  it("gives way to the transaction, tries again, and applies everything once it ends", async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      // A request's transaction holding a table the last migration (0465) alters, and about to read one
      // the first (0415) alters: a migration taking its locks as it went deadlocked with it.
      await holder.query("begin");
      await holder.query("select count(*) from oidc_signing_keys");
      const started = Date.now();
      const migrating = migrate(database.handle);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Not stuck in front of the request: its next table is free to read while the migration waits.
      await holder.query("select count(*) from diia_requests");
      await holder.query("commit");
      const applied = await migrating;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(applied[0]).toMatch(/^0415_/);
      const last = listMigrations().at(-1);
      expect(applied.at(-1)).toBe(`${String(last?.version).padStart(4, "0")}_${last?.name}`);
    } finally {
      await holder.end();
    }
  });
});
