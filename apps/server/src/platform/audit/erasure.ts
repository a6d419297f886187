import { sql } from "kysely";
import type { Db } from "../db/schema.ts";

const updated = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows);

/**
 * An erased person's audit rows stay (who did what, when, with which result), keyed by the same id, without
 * what identifies a human: the address, the browser and the details (old and new e-mail, device names).
 * Rows where they acted as an operator keep their details (those are about the other person). Answers how many
 * rows changed.
 */
export async function anonymiseAuditRowsOf(db: Db, userId: string): Promise<number> {
  const own = await db
    .updateTable("audit_events")
    .set({ ip: null, user_agent: null, details: "{}" })
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([eb("ip", "is not", null), eb("user_agent", "is not", null), eb(sql<string>`details::text`, "!=", "{}")]),
    )
    .executeTakeFirst();
  const asOperator = await db
    .updateTable("audit_events")
    .set({ ip: null, user_agent: null })
    .where("actor_id", "=", userId)
    .where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "!=", userId)]))
    .where((eb) => eb.or([eb("ip", "is not", null), eb("user_agent", "is not", null)]))
    .executeTakeFirst();
  return updated(own) + updated(asOperator);
}
