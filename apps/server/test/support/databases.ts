import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, type DatabaseKind, openDatabase } from "../../src/db/index.ts";
import { migrate } from "../../src/db/migrate.ts";

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
    const handle = await openDatabase({ dataDir: "memory://" });
    if (migrated) await migrate(handle);
    return { handle, dispose: () => handle.close() };
  }
  const name = `kpi_id_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  // The benchmarks measure with and without prepared statements by setting the same variable the service reads.
  const preparedStatements = process.env.DATABASE_PREPARED_STATEMENTS !== "false";
  const handle = await openDatabase({ url: url.toString(), dataDir: "unused", poolMax: 5, preparedStatements });
  if (migrated) await migrate(handle);
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
