// The test databases themselves: a database a test gets is as new as one migrated from nothing, even when the
// worker lends it again after another test (test/support/pglite-pool.ts and postgres-pool.ts).
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { listMigrations } from "../../../src/platform/db/migrate.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { pglitePoolStats } from "../../support/pglite-pool.ts";
import {
  dropAbandonedRunDatabases,
  holdRunLock,
  postgresPoolStats,
  runDatabasePrefix,
  withClient,
} from "../../support/postgres-pool.ts";

async function counts(database: TestDatabase) {
  const { rows } = await sql<{ throttled: number; migrations: number; timeout: string }>`
    select (select count(*)::int from throttle_counters) as throttled,
      (select count(*)::int from schema_migrations) as migrations,
      current_setting('statement_timeout') as timeout`.execute(database.handle.db);
  return rows[0];
}

async function tableExists(database: TestDatabase, name: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`.execute(
    database.handle.db,
  );
  return rows[0]?.found ?? false;
}

describe("the tests' PGlite databases", () => {
  it("one lent again after a test wrote rows, changed a setting and made a temporary table starts as new", async () => {
    const used = await createTestDatabase("pglite");
    const fresh = await counts(used);
    await sql`insert into throttle_counters (key, failures, first_failure_at, last_failure_at)
      values ('probe', 3, now(), now())`.execute(used.handle.db);
    await sql`set statement_timeout = '5s'`.execute(used.handle.db);
    await sql`create temporary table scratch_probe (id integer)`.execute(used.handle.db);
    expect(await counts(used)).toMatchObject({ throttled: 1, timeout: "5s" });
    await used.dispose();

    const before = pglitePoolStats();
    const next = await createTestDatabase("pglite");
    try {
      // The same instance, put back: the pool's speed-up is not lost to a reset that quietly fails.
      expect(pglitePoolStats()).toMatchObject({ lentAgain: before.lentAgain + 1, started: before.started });
      expect(fresh).toEqual({ throttled: 0, migrations: listMigrations().length, timeout: "0" });
      expect(await counts(next)).toEqual(fresh);
      expect(await tableExists(next, "scratch_probe")).toBe(false);
    } finally {
      await next.dispose();
    }
  });

  it("a table a test created is not in the next test's database", async () => {
    const changed = await createTestDatabase("pglite");
    await sql`create table leftover_probe (id integer primary key)`.execute(changed.handle.db);
    expect(await tableExists(changed, "leftover_probe")).toBe(true);
    const before = pglitePoolStats();
    await changed.dispose();
    expect(pglitePoolStats().closedOnReturn).toBe(before.closedOnReturn + 1);

    const next = await createTestDatabase("pglite");
    try {
      expect(await tableExists(next, "leftover_probe")).toBe(false);
      expect((await counts(next))?.migrations).toBe(listMigrations().length);
    } finally {
      await next.dispose();
    }
  });

  it("a closed database refuses queries, so a test's late timer cannot write into the next test's", async () => {
    const closed = await createTestDatabase("pglite");
    const { db } = closed.handle;
    await closed.dispose();
    const next = await createTestDatabase("pglite");
    try {
      await expect(
        sql`insert into throttle_counters (key, failures, first_failure_at, last_failure_at)
          values ('late', 1, now(), now())`.execute(db),
      ).rejects.toThrow();
      // The same through the instance itself, as the handle's scripts and notifications reach it.
      await expect(
        closed.handle.scriptTransaction((tx) =>
          tx.exec("insert into throttle_counters (key, failures) values ('late-script', 1)"),
        ),
      ).rejects.toThrow("PGlite is closed");
      expect((await counts(next))?.throttled).toBe(0);
    } finally {
      await next.dispose();
    }
  });
});

// The same for the PostgreSQL server's databases (test/support/postgres-pool.ts), when a test run has one.
describe.runIf(process.env.DATABASE_URL)("the tests' PostgreSQL databases", () => {
  it("one lent again after a test wrote rows starts as new, under a name of its own", async () => {
    const used = await createTestDatabase("postgres");
    const fresh = await counts(used);
    await sql`insert into throttle_counters (key, failures, first_failure_at, last_failure_at)
      values ('probe', 3, now(), now())`.execute(used.handle.db);
    expect(await counts(used)).toMatchObject({ throttled: 1 });
    const usedName = await databaseName(used);
    await used.dispose();

    const before = postgresPoolStats();
    const next = await createTestDatabase("postgres");
    try {
      // The same database, put back: the pool's speed-up is not lost to a reset that quietly fails.
      expect(postgresPoolStats()).toMatchObject({ lentAgain: before.lentAgain + 1, created: before.created });
      expect(fresh).toMatchObject({ throttled: 0, migrations: listMigrations().length });
      expect(await counts(next)).toEqual(fresh);
      expect(await databaseName(next)).not.toBe(usedName);
    } finally {
      await next.dispose();
    }
  });

  it("an earlier loan's connection string reaches nothing, so a process left behind cannot write into the next test's database", async () => {
    const earlier = await createTestDatabase("postgres");
    const { url } = earlier;
    await earlier.dispose();
    const next = await createTestDatabase("postgres");
    const late = new pg.Client({ connectionString: url });
    try {
      await expect(late.connect()).rejects.toThrow(/does not exist/);
      expect((await counts(next))?.throttled).toBe(0);
    } finally {
      await late.end().catch(() => {});
      await next.dispose();
    }
  });

  it("a connection a test left open is ended when the database goes back, and a changed schema is dropped", async () => {
    const changed = await createTestDatabase("postgres");
    await sql`create table leftover_probe (id integer primary key)`.execute(changed.handle.db);
    const left = new pg.Client({ connectionString: changed.url });
    await left.connect();
    // The client reports the end twice (the server's message, then the closed socket): both are listened for.
    const ended = new Promise<Error>((resolve) => left.on("error", resolve));
    const before = postgresPoolStats();
    await changed.dispose();
    expect((await ended).message).toMatch(/terminat/);
    expect(postgresPoolStats().droppedOnReturn).toBe(before.droppedOnReturn + 1);

    const next = await createTestDatabase("postgres");
    try {
      expect(await tableExists(next, "leftover_probe")).toBe(false);
      expect((await counts(next))?.migrations).toBe(listMigrations().length);
    } finally {
      await next.dispose();
    }
  });

  it("an earlier run stopped before its teardown has its databases dropped by the next; a run still going keeps its own", async () => {
    const adminUrl = String(process.env.DATABASE_URL);
    // A run killed before its teardown: its lock went with its connection. A run going on holds its own.
    const abandoned = `${runDatabasePrefix()}_template`;
    const goingPrefix = runDatabasePrefix();
    const going = `${goingPrefix}_idle_probe`;
    const releaseGoing = await holdRunLock(adminUrl, goingPrefix);
    await withClient(adminUrl, async (admin) => {
      await admin.query(`create database ${abandoned}`);
      await admin.query(`create database ${going}`);
    });
    try {
      await dropAbandonedRunDatabases(adminUrl);
      expect(await serverDatabases(adminUrl)).not.toContain(abandoned);
      expect(await serverDatabases(adminUrl)).toContain(going);
    } finally {
      await releaseGoing();
      await withClient(adminUrl, async (admin) => {
        await admin.query(`drop database if exists ${abandoned}`);
        await admin.query(`drop database if exists ${going}`);
      });
    }
  });

  it("the browser suite's runs clean up the same way, each family only its own", async () => {
    const adminUrl = String(process.env.DATABASE_URL);
    // A browser-suite run killed before it dropped its databases, one going on, and a vitest run's killed one.
    const abandoned = `${runDatabasePrefix("kpi_id_e2e_")}_w0_0a1b2c3d`;
    const goingPrefix = runDatabasePrefix("kpi_id_e2e_");
    const going = `${goingPrefix}_own_3312_0a1b2c3d`;
    const vitestAbandoned = `${runDatabasePrefix()}_template`;
    const releaseGoing = await holdRunLock(adminUrl, goingPrefix);
    const names = [abandoned, going, vitestAbandoned];
    await withClient(adminUrl, async (admin) => {
      for (const name of names) await admin.query(`create database ${name}`);
    });
    try {
      await dropAbandonedRunDatabases(adminUrl, "kpi_id_e2e_");
      const left = await serverDatabases(adminUrl);
      expect(left).not.toContain(abandoned);
      expect(left).toContain(going);
      expect(left).toContain(vitestAbandoned);
    } finally {
      await releaseGoing();
      await withClient(adminUrl, async (admin) => {
        for (const name of names) await admin.query(`drop database if exists ${name}`);
      });
    }
  });
});

async function serverDatabases(adminUrl: string): Promise<string[]> {
  return withClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ name: string }>("select datname as name from pg_database");
    return rows.map((row) => row.name);
  });
}

async function databaseName(database: TestDatabase): Promise<string | undefined> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.handle.db);
  return rows[0]?.name;
}
