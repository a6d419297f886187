// The `diia_requests` table (owner: model/diia): a deep link's life from creation to the grant it hands out.
import type { ProcessingStatus } from "@kpi-id/contracts";
import { sql } from "kysely";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

/** Who asked for a deep link, as the request row keeps it. */
export interface DiiaCaller {
  browserHash: Buffer;
  addressHash: Buffer;
  serverSide: boolean;
}

export interface NewDiiaRequest {
  id: string;
  hashedRequestId: string;
  deepLink: string;
  /** Who asked: their binding cookie's hash, their address's, and whether they are a server. */
  caller: DiiaCaller;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertDiiaRequest(db: Db, request: NewDiiaRequest): Promise<void> {
  await db
    .insertInto("diia_requests")
    .values({
      id: request.id,
      hashed_request_id: request.hashedRequestId,
      deep_link: request.deepLink,
      browser_hash: request.caller.browserHash,
      caller_address_hash: request.caller.addressHash,
      server_side: request.caller.serverSide,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    })
    .execute();
}

/** The polled read: one primary-key look-up, nothing written. */
export function findDiiaRequestStatus(db: Db, id: string) {
  return db
    .selectFrom("diia_requests")
    .select([
      "status",
      "expires_at",
      "finished_at",
      "user_id",
      "browser_hash",
      "caller_address_hash",
      "server_side",
      "failure_code",
    ])
    .select((eb) => eb("grant_hash", "is not", null).as("grant_issued"))
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The callback's look-up: Diia knows the request only by its hash (unique index). */
export function findDiiaRequestByHash(db: Db, hashedRequestId: string) {
  return db
    .selectFrom("diia_requests")
    .select(["id", "status", "expires_at"])
    .where("hashed_request_id", "=", hashedRequestId)
    .executeTakeFirst();
}

/**
 * Moves a request out of Processing exactly once: of two callbacks for the same
 * request only the first changes it (replays change nothing and get false).
 */
export async function settleDiiaRequest(
  db: Db,
  id: string,
  outcome: { status: Exclude<ProcessingStatus, "Processing">; userId?: string; failureCode?: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("diia_requests")
    .set({
      status: outcome.status,
      user_id: outcome.userId ?? null,
      failure_code: outcome.failureCode ?? null,
      finished_at: now,
    })
    .where("id", "=", id)
    .where("status", "=", "Processing")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes requests whose deep link died long ago; the rows hold no secret but need not pile up. */
export async function deleteOldDiiaRequests(db: Db, olderThan: Date): Promise<number> {
  const result = await db.deleteFrom("diia_requests").where("expires_at", "<", olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Hands out a finished request's grant exactly once: the row lock makes two simultaneous polls agree on who gets
 * it. `issue` makes the grant inside the same transaction (the sign-in plumbing owns login grants).
 */
export function handOutDiiaGrant(
  db: Db,
  id: string,
  issue: (trx: Db, userId: string) => Promise<string>,
): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("diia_requests")
      .select(["user_id", "grant_hash"])
      .where("id", "=", id)
      .where("status", "=", "Finished")
      .forUpdate()
      .executeTakeFirst();
    if (!row?.user_id || row.grant_hash) return undefined;
    const grant = await issue(trx, row.user_id);
    await trx
      .updateTable("diia_requests")
      .set({ grant_hash: hashToken(grant) })
      .where("id", "=", id)
      .execute();
    return grant;
  });
}

/** Requests waiting for the phone (Processing, not expired): the metrics gauge reads it on scrape. */
export async function countPendingDiiaRequests(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom("diia_requests")
    .select(sql<string>`count(*)`.as("n"))
    .where("status", "=", "Processing")
    .where("expires_at", ">", now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The last day's requests by status, for `admin diia status`. */
export async function countRecentDiiaRequests(db: Db, since: Date): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("diia_requests")
    .select(["status", sql<number>`count(*)::int`.as("count")])
    .where("created_at", ">", since)
    .groupBy("status")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/** The person's Diia requests (erasure); answers how many there were. */
export async function deleteDiiaRequestsOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("diia_requests").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
