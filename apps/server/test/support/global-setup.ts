// Once per vitest run, before any test file: one migrated database of each kind, which every test
// database then copies instead of creating an empty one and running all the migrations again
// (an empty PGlite cluster alone costs 1.5-4 s on a loaded 2-core machine; loading a copy about 0.5 s).
// The migration tests still migrate empty databases themselves ({ migrated: false }).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/platform/db/index.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { PGLITE_SNAPSHOT_VARIABLE, TEMPLATE_DATABASE_VARIABLE } from "./databases.ts";
import { RUN_KEY_FOLDER_VARIABLE } from "./key-material.ts";
import {
  DATABASE_PREFIX_VARIABLE,
  databaseUrl,
  dropAbandonedRunDatabases,
  dropRunDatabases,
  holdRunLock,
  runDatabasePrefix,
  withClient,
} from "./postgres-pool.ts";

async function writePgliteSnapshot(path: string): Promise<void> {
  const handle = await openDatabase({ dataDir: "memory://" });
  try {
    await migrate(handle);
    if (!handle.dumpDataDir) throw new Error("PGlite handle cannot dump its files");
    const dump = await handle.dumpDataDir();
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
}

/** A migrated PostgreSQL database that no one connects to afterwards, so CREATE DATABASE can copy it. */
async function createTemplateDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (admin) => admin.query(`create database ${name}`));
  const handle = await openDatabase({ url: databaseUrl(adminUrl, name), dataDir: "unused", poolMax: 1 });
  try {
    await migrate(handle);
  } finally {
    await handle.close();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const snapshot = join(tmpdir(), `kpi-id-test-pglite-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
  await writePgliteSnapshot(snapshot);
  // Test workers are forked from this process after set-up and inherit its environment.
  process.env[PGLITE_SNAPSHOT_VARIABLE] = snapshot;
  // The key material the workers share (key-material.ts) goes in here, removed with the run: a worker is stopped,
  // not asked to exit, so it cannot clear its own.
  const keyFolder = mkdtempSync(join(tmpdir(), "kpi-id-test-keys-"));
  process.env[RUN_KEY_FOLDER_VARIABLE] = keyFolder;
  const adminUrl = process.env.DATABASE_URL;
  // Every database of this run starts with this, the template too; the workers' pools keep some until the run ends.
  const prefix = runDatabasePrefix();
  const template = `${prefix}_template`;
  // Held until the run's end: another run starting meanwhile leaves this one's databases alone.
  const releaseRunLock = adminUrl ? await holdRunLock(adminUrl, prefix) : undefined;
  if (adminUrl) {
    await dropAbandonedRunDatabases(adminUrl);
    await createTemplateDatabase(adminUrl, template);
    process.env[TEMPLATE_DATABASE_VARIABLE] = template;
    process.env[DATABASE_PREFIX_VARIABLE] = prefix;
  }
  return async () => {
    rmSync(snapshot, { force: true });
    rmSync(keyFolder, { recursive: true, force: true });
    if (!adminUrl) return;
    try {
      // The template is among them.
      await dropRunDatabases(adminUrl, prefix);
    } finally {
      await releaseRunLock?.();
    }
  };
}
