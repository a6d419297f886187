import type { Db } from "../../platform/db/schema.ts";

/**
 * Remembers a request id an SP sent until it expires (the expired ones are dropped first); false when it was
 * already there: a replay.
 */
export async function rememberSeenRequest(
  db: Db,
  seen: { spEntityId: string; requestId: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  await db.deleteFrom("saml_seen_requests").where("expires_at", "<", seen.now).execute();
  const inserted = await db
    .insertInto("saml_seen_requests")
    .values({ sp_entity_id: seen.spEntityId, request_id: seen.requestId, expires_at: seen.expiresAt })
    .onConflict((conflict) => conflict.doNothing())
    .returning("request_id")
    .executeTakeFirst();
  return inserted !== undefined;
}
