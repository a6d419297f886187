import { sql } from "kysely";
import type { Db } from "./schema.ts";

/** The database server's version (`server_version`: PostgreSQL's, or the one PGlite embeds); null when it does not answer. */
export async function databaseVersion(db: Db): Promise<string | null> {
  try {
    const { rows } = await sql<{ server_version: string }>`show server_version`.execute(db);
    return rows[0]?.server_version ?? null;
  } catch {
    return null;
  }
}
