import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** The units with these codes (lower case), by lower-cased code: the ones a pushed person's records name. */
export async function unitIdsByCode(db: Db, wanted: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("units")
    .select(["id", "code"])
    .where(sql<string>`lower(code)`, "in", wanted)
    .execute();
  return new Map(rows.map((row) => [row.code.toLowerCase(), row.id]));
}

/** The person the source system knows by this externalId, deleted over SCIM or not. */
export function personByExternalId(db: Db, externalId: string) {
  return db
    .selectFrom("users")
    .select(["id", "scim_deleted_at"])
    .where("scim_external_id", "=", externalId)
    .executeTakeFirst();
}
