import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { type DatabaseHandle, type DatabaseKind, openDatabase } from "../../src/platform/db/index.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { borrowMigratedPglite } from "./pglite-pool.ts";

/**
 * The databases every database test runs on: always PGlite; also the real
 * PostgreSQL server when DATABASE_URL names one (as .ci/run does).
 */
export const databaseKinds: DatabaseKind[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export interface TestDatabase {
  handle: DatabaseHandle;
  /** PostgreSQL only: the database's URL, for a second instance or client on the same database. */
  url?: string;
  /** Closes the handle and drops the per-test database on the server. */
  dispose(): Promise<void>;
}

/**
 * Set by global-setup.ts for the test workers: a migrated PGlite database's files, and the name of a
 * migrated PostgreSQL database to copy. Without them (a bench, a script) each database is migrated here.
 */
export const PGLITE_SNAPSHOT_VARIABLE = "KPI_ID_TEST_PGLITE_SNAPSHOT";
export const TEMPLATE_DATABASE_VARIABLE = "KPI_ID_TEST_TEMPLATE_DATABASE";

let pgliteSnapshot: Blob | undefined;

function migratedPgliteFiles(): Blob | undefined {
  const path = process.env[PGLITE_SNAPSHOT_VARIABLE];
  if (!path) return undefined;
  pgliteSnapshot ??= new Blob([readFileSync(path)]);
  return pgliteSnapshot;
}

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  return url;
}

/** A new, empty, migrated database of the given kind, private to the caller. */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (kind === "pglite") {
    const snapshot = migrated ? migratedPgliteFiles() : undefined;
    // With the migrated files, an instance from the worker's pool, put back to them after the last test's use.
    const pglite = snapshot ? await borrowMigratedPglite(snapshot) : undefined;
    const handle = await openDatabase({ dataDir: "memory://", pglite });
    if (migrated && !snapshot) await migrate(handle);
    return { handle, dispose: () => handle.close() };
  }
  const name = `kpi_id_test_${randomBytes(6).toString("hex")}`;
  const template = migrated ? process.env[TEMPLATE_DATABASE_VARIABLE] : undefined;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  // The benchmarks measure with and without prepared statements by setting the same variable the service reads.
  const preparedStatements = process.env.DATABASE_PREPARED_STATEMENTS !== "false";
  const handle = await openDatabase({ url: url.toString(), dataDir: "unused", poolMax: 5, preparedStatements });
  if (migrated && !template) await migrate(handle);
  let closed = false;
  return {
    handle,
    url: url.toString(),
    async dispose() {
      if (!closed) await handle.close().catch(() => {});
      closed = true;
      const cleanup = new pg.Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
