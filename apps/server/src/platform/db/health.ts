import { sql } from "kysely";
import type { Db } from "./schema.ts";

// What `doctor` asks the database itself, below any table's owner.

/** The versions of the applied migrations; undefined when none was ever applied (no schema_migrations table). */
export function appliedMigrationVersions(db: Db) {
  return sql<{ version: number }>`select version from schema_migrations`.execute(db).catch(() => undefined);
}

/** The database's clock, to compare with this machine's. */
export async function databaseNow(db: Db): Promise<Date | undefined> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return rows[0]?.now;
}
