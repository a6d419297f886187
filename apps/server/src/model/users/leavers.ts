import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { noRecordCurrentSince } from "../people/current-records.ts";

/**
 * People who left before the cutoff: disabled (by SCIM, an import, the console or the CLI) and not yet erased,
 * with no record that is current nor any record or change of theirs newer than the cutoff, and no console role.
 * "Left" is dated by the last change to the person or their records, so a source system that still writes about
 * someone keeps them. The longest gone first, at most `limit`.
 */
export async function peopleLeftBefore(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select("users.id")
    .where("users.status", "=", "disabled")
    .where("users.anonymised_at", "is", null)
    .where("users.updated_at", "<", cutoff)
    .where((eb) => eb.or([eb("users.scim_deleted_at", "is", null), eb("users.scim_deleted_at", "<", cutoff)]))
    .where((eb) => noRecordCurrentSince(eb.ref("users.id"), cutoff))
    .where(sql<boolean>`not exists (select 1 from operator_roles as o where o.user_id = users.id)`)
    .orderBy("users.updated_at")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
