import type { Db } from "../../platform/db/schema.ts";

/** A sign-in sent to a home institution; the browser that started it is known by the hash of its cookie value. */
export interface VisitorRequest {
  id: string;
  browserHash: string;
  institution: string;
  purpose: "sign-in" | "link";
  userId: string | null;
  expiresAt: Date;
}

export async function saveVisitorRequest(db: Db, request: VisitorRequest, now: Date) {
  await db.deleteFrom("visitor_sign_in_requests").where("expires_at", "<", now).execute();
  await db
    .insertInto("visitor_sign_in_requests")
    .values({
      id: request.id,
      browser_hash: request.browserHash,
      institution: request.institution,
      purpose: request.purpose,
      user_id: request.userId,
      expires_at: request.expiresAt,
    })
    .execute();
}

/** The request an answer says it responds to, while it has no answer yet and has not lapsed. */
export const findUnansweredRequest = (db: Db, id: string, now: Date) =>
  db
    .selectFrom("visitor_sign_in_requests")
    .selectAll()
    .where("id", "=", id)
    .where("answer", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();

/** Keeps the verified answer with its request (once: a second answer to the same request changes nothing). */
export async function recordAnswer(db: Db, id: string, answer: unknown, expiresAt: Date): Promise<boolean> {
  const result = await db
    .updateTable("visitor_sign_in_requests")
    .set({ answer: JSON.stringify(answer), expires_at: expiresAt })
    .where("id", "=", id)
    .where("answer", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The answered request of this browser, while it lasts. */
export const findAnsweredRequest = (db: Db, id: string, browserHash: string, now: Date) =>
  db
    .selectFrom("visitor_sign_in_requests")
    .selectAll()
    .where("id", "=", id)
    .where("browser_hash", "=", browserHash)
    .where("answer", "is not", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();

/** Uses the answered request up: true for the one caller that did. */
export async function consumeAnsweredRequest(db: Db, id: string, browserHash: string, now: Date): Promise<boolean> {
  const result = await db
    .deleteFrom("visitor_sign_in_requests")
    .where("id", "=", id)
    .where("browser_hash", "=", browserHash)
    .where("answer", "is not", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Remembers an assertion until it lapses; false when it was already used: a replay. */
export async function rememberAssertion(
  db: Db,
  seen: { institution: string; assertionId: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  await db.deleteFrom("visitor_seen_assertions").where("expires_at", "<", seen.now).execute();
  const inserted = await db
    .insertInto("visitor_seen_assertions")
    .values({ institution: seen.institution, assertion_id: seen.assertionId, expires_at: seen.expiresAt })
    .onConflict((conflict) => conflict.doNothing())
    .returning("assertion_id")
    .executeTakeFirst();
  return inserted !== undefined;
}
