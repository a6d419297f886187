import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/platform/db/index.ts";
import { listMigrations, migrate } from "../../../src/platform/db/migrate.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../support/databases.ts";

/** Tables, columns with types, nullability and defaults, and indexes: what a migration decides. */
async function describeSchema(handle: DatabaseHandle): Promise<string[]> {
  const columns = await sql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as line
    from information_schema.columns where table_schema = 'public' order by 1`.execute(handle.db);
  const indexes = await sql<{ line: string }>`
    select indexdef as line from pg_indexes where schemaname = 'public' order by 1`.execute(handle.db);
  // NOT NULL is compared through information_schema above; PostgreSQL 18 (the
  // one inside PGlite) also lists it in pg_constraint as contype 'n', older servers do not.
  const constraints = await sql<{ line: string }>`
    select conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) as line
    from pg_constraint where connamespace = 'public'::regnamespace and contype <> 'n' order by 1`.execute(handle.db);
  return [...columns.rows, ...indexes.rows, ...constraints.rows].map((row) => row.line);
}

describe.each(databaseKinds)("migrations on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrated: false });
  });
  afterAll(() => database.dispose());

  it("apply every migration once, in order, and then nothing", async () => {
    const first = await migrate(database.handle);
    expect(first).toEqual(listMigrations().map((m) => `${String(m.version).padStart(4, "0")}_${m.name}`));
    expect(await migrate(database.handle)).toEqual([]);
    const tables = await database.handle.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        "users",
        "applications",
        "sessions",
        "login_grants",
        "tickets",
        "diia_requests",
        "audit_events",
      ]),
    );
  });
});

describe.runIf(databaseKinds.includes("postgres"))("schema parity", () => {
  it("is the same on PGlite and on PostgreSQL", async () => {
    const embedded = await createTestDatabase("pglite");
    const server = await createTestDatabase("postgres");
    try {
      const [a, b] = [await describeSchema(embedded.handle), await describeSchema(server.handle)];
      expect(a.length).toBeGreaterThan(50);
      expect(a).toEqual(b);
    } finally {
      await embedded.dispose();
      await server.dispose();
    }
  });
});
