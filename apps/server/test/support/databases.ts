import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DatabaseHandle, type DatabaseKind, loadPglite, openDatabase } from "../../src/platform/db/index.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { borrowMigratedPglite } from "./pglite-pool.ts";
import { borrowMigratedPostgres, createEmptyPostgres, databaseUrl } from "./postgres-pool.ts";

/**
 * The databases every database test runs on: always PGlite; also the real
 * PostgreSQL server when DATABASE_URL names one (as .ci/run does).
 */
export const databaseKinds: DatabaseKind[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * The one database a test above the model runs on (issue 75): the PostgreSQL server when DATABASE_URL names one (as
 * .ci/run does), else PGlite. Routes, protocols and screens call the same model functions on either, and the model's
 * contract tests run those on both (`databaseKinds`; docs/testing.md lists them and says why): running the layers
 * above on both as well repeated them at twice the cost.
 */
export const aboveModelDatabase: DatabaseKind = process.env.DATABASE_URL ? "postgres" : "pglite";

/** The same as the list `describe.each` takes, so that a file's tests keep their names ("… (postgres)"). */
export const aboveModelDatabases: DatabaseKind[] = [aboveModelDatabase];

export interface TestDatabase {
  handle: DatabaseHandle;
  /** PostgreSQL only: the database's URL, for a second instance or client on the same database. */
  url?: string;
  /** Closes the handle and gives the database back to the worker's pool, or drops it. */
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

/**
 * An embedded database on disk in `dataDir`, migrated, as `kpi-id` leaves one (its cluster in `pglite/`), closed:
 * the run's migrated files written there (about 2 s) instead of a new cluster made and migrated (5–6 s alone, 20 and
 * more on a loaded machine). For a test about what opens it, not about a first start.
 */
export async function migratedDataDirOnDisk(dataDir: string): Promise<void> {
  const snapshot = migratedPgliteFiles();
  if (!snapshot) {
    const handle = await openDatabase({ dataDir });
    await migrate(handle);
    await handle.close();
    return;
  }
  const { PGlite, extensions } = await loadPglite();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pglite = await PGlite.create(join(dataDir, "pglite"), { extensions, loadDataDir: snapshot });
  await pglite.close();
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
  const template = migrated ? process.env[TEMPLATE_DATABASE_VARIABLE] : undefined;
  // With the migrated template, a database from the worker's pool, put back to it after the last test's use.
  const loan = template ? await borrowMigratedPostgres(adminUrl(), template) : await createEmptyPostgres(adminUrl());
  const url = databaseUrl(adminUrl(), loan.name);
  // The benchmarks measure with and without prepared statements by setting the same variable the service reads.
  const preparedStatements = process.env.DATABASE_PREPARED_STATEMENTS !== "false";
  const handle = await openDatabase({ url, dataDir: "unused", poolMax: 5, preparedStatements });
  if (migrated && !template) await migrate(handle);
  let closed = false;
  return {
    handle,
    url,
    async dispose() {
      if (!closed) await handle.close().catch(() => {});
      closed = true;
      await loan.giveBack();
    },
  };
}
