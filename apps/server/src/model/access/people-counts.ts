import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** How many people may enter each application (the console's list), by application id. */
export async function peopleCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("user_applications")
    .select(["application_id", sql<string>`count(*)`.as("people")])
    .groupBy("application_id")
    .execute();
  return new Map(rows.map((row) => [row.application_id, Number(row.people)]));
}
