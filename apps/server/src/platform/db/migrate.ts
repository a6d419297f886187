import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { DatabaseHandle, ScriptTransaction } from "./index.ts";

const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url));

// Any constant works; every instance must use the same one so that two
// instances starting together apply each migration once.
const MIGRATION_LOCK_ID = 4_242_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir: string = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file.slice(0, 4), 10),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, `file://${dir}`), "utf8"),
    }));
}

async function ensureLedger(tx: ScriptTransaction): Promise<void> {
  await tx.exec(`create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`);
}

async function appliedVersions(tx: ScriptTransaction): Promise<Set<number>> {
  const rows = await tx.query<{ version: number }>("select version from schema_migrations");
  return new Set(rows.map((row) => Number(row.version)));
}

/**
 * A migration run while the previous release serves (docs/operations.md, rolling upgrade) used to take its
 * tables' locks one statement at a time, so a request holding one of them while waiting for another
 * deadlocked with it: in the cluster's rolling upgrade PostgreSQL cancelled sometimes a sign-in, sometimes the
 * migration. Now the migration first locks every table there is, in one statement, waiting at most this long
 * (under PostgreSQL's deadlock_timeout, 1 s, so it is the migration that gives up, and the requests queued
 * behind it go on); it then tries again a little later. Once it holds them it waits for nothing, and requests
 * wait (they do not fail) until it commits.
 */
const lockWaitMs = 500;
const attempts = 40;
// lock_not_available (the wait above ran out) and deadlock_detected.
const retriedCodes = new Set(["55P03", "40P01"]);

function sqlState(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

async function lockEveryTable(tx: ScriptTransaction): Promise<void> {
  const tables = await tx.query<{ name: string }>(
    "select format('%I', tablename) as name from pg_tables where schemaname = current_schema() order by tablename",
  );
  if (tables.length === 0) return;
  await tx.exec(`set local lock_timeout = '${lockWaitMs}ms'`);
  await tx.exec(`lock table ${tables.map((table) => table.name).join(", ")} in access exclusive mode`);
  await tx.exec("set local lock_timeout = 0");
}

/** Applies, in order and in one transaction, the migrations not yet applied. Returns their names. */
export async function migrate(database: DatabaseHandle, migrations = listMigrations()): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(database, migrations);
    } catch (error) {
      const code = sqlState(error);
      if (database.kind !== "postgres" || attempt >= attempts || !code || !retriedCodes.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * attempt)));
    }
  }
}

async function migrateOnce(database: DatabaseHandle, migrations: Migration[]): Promise<string[]> {
  return database.scriptTransaction(async (tx) => {
    if (database.kind === "postgres") {
      await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    }
    await ensureLedger(tx);
    const applied = await appliedVersions(tx);
    // Only when there is something to apply: an instance starting on a migrated database locks nothing.
    const pending = migrations.some((migration) => !applied.has(migration.version));
    if (database.kind === "postgres" && pending) await lockEveryTable(tx);
    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      newlyApplied.push(`${String(migration.version).padStart(4, "0")}_${migration.name}`);
    }
    return newlyApplied;
  });
}
