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

/** Applies, in order and in one transaction, the migrations not yet applied. Returns their names. */
export async function migrate(database: DatabaseHandle, migrations = listMigrations()): Promise<string[]> {
  return database.scriptTransaction(async (tx) => {
    if (database.kind === "postgres") {
      await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    }
    await ensureLedger(tx);
    const applied = await appliedVersions(tx);
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
