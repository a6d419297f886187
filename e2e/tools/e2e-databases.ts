// Where the browser suite's KPI IDs keep their data. Where DATABASE_URL names a PostgreSQL server (as .ci/run sets
// it for every suite), each worker's server and each spec's own KPI ID get a fresh database of their own on it,
// made for the run and dropped after it; elsewhere, or with E2E_EMBEDDED_DATABASE=true, the embedded PGlite that
// `npm start` uses. PGlite runs PostgreSQL compiled to WebAssembly on the server's own thread: on PostgreSQL the
// servers spent less of the two cores the browsers need (issue 63, docs/performance.md).
//
// A run's databases are named after it (`kpi_id_e2e_<pid>_<random>_…`, the prefix made once by playwright.config.ts
// and passed to the workers), and start-servers.ts holds the run's advisory lock while the run lives: a run killed
// before it could drop its databases leaves them to the next run, which drops every run's whose lock is free, as
// vitest's runs do (apps/server/test/support/postgres-pool.ts).
import { randomBytes } from "node:crypto";
import { databaseUrl, runDatabasePrefix, withClient } from "@kpi-id/server/testing";

export type E2eDatabaseKind = "postgres" | "pglite";

/** The PostgreSQL server the browser suite's databases are made on, or undefined for the embedded database. */
export function e2ePostgresAdminUrl(): string | undefined {
  if (process.env.E2E_EMBEDDED_DATABASE === "true") return undefined;
  const url = process.env.DATABASE_URL;
  return url?.startsWith("postgres") ? url : undefined;
}

export function e2eDatabaseKind(): E2eDatabaseKind {
  return e2ePostgresAdminUrl() === undefined ? "pglite" : "postgres";
}

/** The family of the browser suite's database names, for dropAbandonedRunDatabases. */
export const e2eDatabaseFamily = "kpi_id_e2e_";

const runPrefixShape = /^kpi_id_e2e_\d+_[0-9a-f]{8}$/;

/**
 * This run's prefix of database names: made once in Playwright's main process, read by its workers and servers. A
 * worker or server without it would name databases no lock protects, so it refuses instead of making one up.
 */
export function e2eRunDatabasePrefix(): string {
  const inMainProcess = process.env.TEST_PARALLEL_INDEX === undefined && process.env.E2E_SERVERS_TO_START === undefined;
  if (inMainProcess) process.env.E2E_RUN_DATABASE_PREFIX ??= runDatabasePrefix(e2eDatabaseFamily);
  const prefix = process.env.E2E_RUN_DATABASE_PREFIX ?? "";
  if (!runPrefixShape.test(prefix)) throw new Error(`E2E_RUN_DATABASE_PREFIX is not a run's prefix: '${prefix}'`);
  return prefix;
}

/** The URL of a new database on the admin URL's server, named `<the run's prefix>_<what>_<random>`. */
export function newE2eDatabaseUrl(adminUrl: string, what: string): string {
  const tag = `${what.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  return databaseUrl(adminUrl, `${e2eRunDatabasePrefix()}_${tag}`);
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  // The name goes into a statement: only the shape newE2eDatabaseUrl makes.
  if (!/^kpi_id_e2e_[a-z0-9_]+$/.test(name)) throw new Error(`not a browser-suite database: ${name}`);
  return name;
}

export async function createE2eDatabase(adminUrl: string, url: string): Promise<void> {
  const name = databaseName(url);
  await withClient(adminUrl, (admin) => admin.query(`create database ${name}`));
}

/** Drops it even while a server still holds connections to it (the run is over). */
export async function dropE2eDatabase(adminUrl: string, url: string): Promise<void> {
  const name = databaseName(url);
  await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}
