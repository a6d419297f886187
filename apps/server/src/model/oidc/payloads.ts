import { sql } from "kysely";
import { oidcPayloadsAnnouncedByWriter } from "../../platform/cache/feed.ts";
import { commitWithoutWaitingForDisk } from "../../platform/db/commit.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * The statements behind the OpenID Connect adapter (protocols/oidc/adapter.ts): one per call, as the adapter
 * always made them. A row's payload is JSON text here; the adapter seals and reads it. Each write ends with
 * feed.ts's mark: the adapter drops what it changed from the instance's token cache itself (token-cache.ts).
 */
const announced = sql.raw(oidcPayloadsAnnouncedByWriter);

/** A payload row as the adapter writes it. */
export interface PayloadRowInput {
  type: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
}

/** Writes the row (replacing one of the same type and id); an issued token does not wait for the disk. */
export async function upsertOidcPayload(db: Db, row: PayloadRowInput, issued: boolean): Promise<void> {
  await db
    .insertInto("oidc_payloads")
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(["type", "id"]).doUpdateSet({
        payload: row.payload,
        grant_id: row.grant_id,
        user_code: row.user_code,
        uid: row.uid,
        expires_at: row.expires_at,
      }),
    )
    .$if(issued, (insert) => insert.returning(commitWithoutWaitingForDisk))
    .modifyEnd(announced)
    .execute();
}

/** The first use counts: a use inside the grace period does not move consumed_at. */
export async function consumeOidcPayload(db: Db, type: string, id: string, at: Date): Promise<void> {
  await db
    .updateTable("oidc_payloads")
    .set({ consumed_at: sql<Date>`coalesce(consumed_at, ${at})` })
    .where("type", "=", type)
    .where("id", "=", id)
    .modifyEnd(announced)
    .execute();
}

export async function deleteOidcPayload(db: Db, type: string, id: string): Promise<void> {
  await db.deleteFrom("oidc_payloads").where("type", "=", type).where("id", "=", id).modifyEnd(announced).execute();
}

export async function deleteOidcPayloadsOfGrant(db: Db, grantId: string): Promise<void> {
  await db.deleteFrom("oidc_payloads").where("grant_id", "=", grantId).modifyEnd(announced).execute();
}

/** The newest row of this type with this id, uid or user code (a user code may come again after an hour). */
export function findOidcPayloadRow(db: Db, type: string, column: "id" | "uid" | "user_code", value: string) {
  return db
    .selectFrom("oidc_payloads")
    .selectAll()
    .where("type", "=", type)
    .where(column, "=", value)
    .orderBy("expires_at", "desc")
    .executeTakeFirst();
}

/** Removes expired rows; called now and then so the table does not grow without bound. */
export async function deleteExpiredOidcPayloads(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom("oidc_payloads").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
