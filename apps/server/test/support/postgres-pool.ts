// A test worker's migrated PostgreSQL databases, lent to one test at a time and put back to the migrated state
// between loans (issue 41), as pglite-pool.ts does for PGlite. A new one costs a CREATE DATABASE … TEMPLATE copy
// (about 0.1 s, and 0.2 s of the server's CPU writing 9.6 MB through the WAL) and a DROP DATABASE at the end
// (0.05 s); putting one back costs about 0.03 s.
//
// A loan sees what a new copy would answer: the template's schema (checked by a fingerprint; a database whose
// schema a test changed is dropped instead), the migrated rows, empty tables and sequences from the start. Not the
// same files: dead rows and planner statistics stay until autovacuum, so only a query that relies on row order
// without ORDER BY could tell. Between loans
// the database has another name, so the connection string of an earlier loan names a database that no longer
// exists, as it did after the drop: a process a test left behind cannot write into the next test's database.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { fingerprint, type MigratedState, type Queryable, readMigratedState } from "./migrated-state.ts";

/**
 * Set by global-setup.ts: the start of every test database's name in this run, so the run's end drops the ones
 * its workers still hold (and any a test left behind) without touching another run's on the same server.
 */
export const DATABASE_PREFIX_VARIABLE = "KPI_ID_TEST_DATABASE_PREFIX";

export interface PostgresLoan {
  /** The database's name for this loan. */
  name: string;
  /** Ends the loan after the test's own connections are closed: the database goes back to the pool or is dropped. */
  giveBack(): Promise<void>;
}

export interface PostgresPoolStats {
  /** Databases copied from the template. */
  created: number;
  /** Loans of a database put back after an earlier loan. */
  lentAgain: number;
  /** Databases dropped when returned: a changed schema, a full pool, or a reset that failed. */
  droppedOnReturn: number;
}

interface Pool {
  /** Names of the databases put back and not lent yet. */
  idle: string[];
  state?: Promise<MigratedState>;
  stats: PostgresPoolStats;
}

// On globalThis: a module the worker evaluates again must still find the same databases.
const poolKey = Symbol.for("kpi-id.test.postgres-pool");
const globals = globalThis as { [poolKey]?: Pool };
globals[poolKey] ??= { idle: [], stats: { created: 0, lentAgain: 0, droppedOnReturn: 0 } };
const pool: Pool = globals[poolKey];
/** More than the most PostgreSQL databases one file holds at once. */
const maxIdle = 3;

/** A new database name of this run. */
export function testDatabaseName(kind: "test" | "idle" = "test"): string {
  const prefix = process.env[DATABASE_PREFIX_VARIABLE] ?? "kpi_id_test";
  return `${prefix}_${kind === "idle" ? "idle_" : ""}${randomBytes(6).toString("hex")}`;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One connection for `use`, ended afterwards whatever `use` does. */
export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function queryable(client: pg.Client): Queryable {
  return {
    query: async <Row>(text: string, params?: unknown[]) => ({
      rows: (await client.query(text, params)).rows as Row[],
    }),
  };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)).catch(() => {});
}

/**
 * A migrated database from the worker's pool under a new name, or a new copy of the template. The caller closes
 * its connections, then gives it back.
 */
export async function borrowMigratedPostgres(adminUrl: string, template: string): Promise<PostgresLoan> {
  const name = testDatabaseName();
  const idle = pool.idle.pop();
  const renamed =
    idle !== undefined &&
    (await withClient(adminUrl, (admin) => admin.query(`alter database ${idle} rename to ${name}`)).then(
      () => true,
      async () => {
        await dropDatabase(adminUrl, idle);
        return false;
      },
    ));
  if (renamed) {
    pool.stats.lentAgain++;
  } else {
    await withClient(adminUrl, (admin) => admin.query(`create database ${name} template ${template}`));
    pool.stats.created++;
  }
  pool.state ??= withClient(databaseUrl(adminUrl, name), (client) => readMigratedState(queryable(client)));
  const state = await pool.state.catch(async (error: unknown) => {
    // The next borrow tries again rather than failing for the rest of the worker's files.
    pool.state = undefined;
    await dropDatabase(adminUrl, name);
    throw error;
  });
  let returned = false;
  return {
    name,
    async giveBack() {
      if (returned) return;
      returned = true;
      await giveBack(adminUrl, name, state);
    },
  };
}

/** A database created empty (for the migration tests), dropped when given back. */
export async function createEmptyPostgres(adminUrl: string): Promise<PostgresLoan> {
  const name = testDatabaseName();
  await withClient(adminUrl, (admin) => admin.query(`create database ${name}`));
  return { name, giveBack: () => dropDatabase(adminUrl, name) };
}

/** Ends every other connection to the database and waits until they are gone, so it can be renamed at once. */
async function endConnections(admin: pg.Client, name: string): Promise<void> {
  const others = "from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()";
  await admin.query(`select pg_terminate_backend(pid) ${others}`, [name]);
  // A closed pool's backends leave within milliseconds; ALTER DATABASE … RENAME would wait for them in 0.1 s steps.
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await admin.query<{ count: number }>(`select count(*)::int as count ${others}`, [name]);
    if ((rows[0]?.count ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function giveBack(adminUrl: string, name: string, state: MigratedState): Promise<void> {
  if (pool.idle.length >= maxIdle) {
    pool.stats.droppedOnReturn++;
    await dropDatabase(adminUrl, name);
    return;
  }
  const idleName = testDatabaseName("idle");
  try {
    // Connections the test left open end here, as they did when the database was dropped WITH (FORCE).
    await withClient(adminUrl, async (admin) => {
      await endConnections(admin, name);
      await admin.query(`alter database ${name} rename to ${idleName}`);
    });
  } catch {
    pool.stats.droppedOnReturn++;
    await dropDatabase(adminUrl, name);
    return;
  }
  const putBackDone = await withClient(databaseUrl(adminUrl, idleName), (client) => putBack(client, state)).catch(
    () => false,
  );
  if (putBackDone) {
    pool.idle.push(idleName);
    return;
  }
  pool.stats.droppedOnReturn++;
  await dropDatabase(adminUrl, idleName);
}

/** Puts a returned database back to the migrated state; false when a test changed its schema. */
async function putBack(client: pg.Client, state: MigratedState): Promise<boolean> {
  // (A prepared transaction a test left would count as a user of the database: the rename before this refuses it.)
  if ((await fingerprint(queryable(client))) !== state.fingerprint) return false;
  // DELETE, not TRUNCATE: truncating the 42 tables makes new files for each table and index (0.14 s against
  // 0.015 s here). The replica role skips foreign-key checks and triggers while the tables are emptied and the
  // migrated rows put back: those rows are every table's, so what a trigger would add is already among them.
  const empty = state.tables.map((table) => `delete from ${table}`);
  const restart = state.sequences.map((sequence) => `alter sequence ${sequence} restart`);
  await client.query(["begin", "set local session_replication_role = replica", ...empty, ...restart].join(";\n"));
  try {
    for (const { table, json } of state.rows) {
      await client.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
        json,
      ]);
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
  return true;
}

/** The worker's counts so far. */
export function postgresPoolStats(): PostgresPoolStats {
  return { ...pool.stats };
}

/**
 * Drops every database of this run still on the server: the pools' idle ones and any a test left behind.
 */
export async function dropRunDatabases(adminUrl: string, prefix: string): Promise<void> {
  await withClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ name: string }>(
      "select datname as name from pg_database where starts_with(datname, $1)",
      [`${prefix}_`],
    );
    await dropEach(admin, rows);
  });
}

/** Drops each database; one that cannot be dropped (a prepared transaction holds it) is named, the others go. */
async function dropEach(admin: pg.Client, databases: readonly { name: string }[]): Promise<void> {
  for (const { name } of databases) {
    await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`).catch((error) => {
      console.warn(`test database ${name} could not be dropped: ${String(error)}`);
    });
  }
}

/**
 * Whose run a database belongs to: vitest's (`kpi_id_run_`) or the browser suite's (`kpi_id_e2e_`,
 * e2e/tools/e2e-databases.ts). Each run's databases start with the family, its main process' id (for people reading
 * the list) and a random part.
 */
export type RunDatabaseFamily = "kpi_id_run_" | "kpi_id_e2e_";

/** The start of a run's database names. */
export function runDatabasePrefix(family: RunDatabaseFamily = "kpi_id_run_"): string {
  return `${family}${process.pid}_${randomBytes(4).toString("hex")}`;
}

const runPrefixOfName = (family: RunDatabaseFamily) => new RegExp(`^(${family}\\d+_[0-9a-f]{8})_`);

// Advisory locks belong to one database: every run takes and tries them in this one, whatever DATABASE_URL names.
const lockDatabase = "postgres";

/**
 * Holds the run's advisory lock (keyed by its prefix) on a connection of its own until the returned function ends
 * it: while the run's process lives, its connection does, and another run leaves its databases alone.
 */
export async function holdRunLock(adminUrl: string, prefix: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: databaseUrl(adminUrl, lockDatabase) });
  // A server restart ends the connection (and the lock); the run goes on without it.
  client.on("error", () => {});
  await client.connect();
  await client.query("select pg_advisory_lock(hashtext($1))", [prefix]);
  return () => client.end().catch(() => {});
}

/**
 * Drops the databases of earlier runs stopped before their teardown (killed, interrupted): no later run of their own
 * would. A run is over when its lock is free: its process, wherever it ran, no longer holds its connection.
 */
export async function dropAbandonedRunDatabases(
  adminUrl: string,
  family: RunDatabaseFamily = "kpi_id_run_",
): Promise<void> {
  await withClient(databaseUrl(adminUrl, lockDatabase), async (admin) => {
    const { rows } = await admin.query<{ name: string }>(
      "select datname as name from pg_database where starts_with(datname, $1)",
      [family],
    );
    const ofRun = runPrefixOfName(family);
    const byRun = Map.groupBy(rows, ({ name }) => ofRun.exec(name)?.[1] ?? "");
    byRun.delete("");
    for (const [prefix, databases] of byRun) {
      const { rows: tried } = await admin.query<{ free: boolean }>(
        "select pg_try_advisory_lock(hashtext($1)) as free",
        [prefix],
      );
      if (!tried[0]?.free) continue;
      try {
        await dropEach(admin, databases);
      } finally {
        await admin.query("select pg_advisory_unlock(hashtext($1))", [prefix]);
      }
    }
  });
}
