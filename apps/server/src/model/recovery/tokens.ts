import { hashToken, newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

export type ResetVia = "email" | "diia" | "bankid";

export interface ResetHolder {
  userId: string;
  via: ResetVia;
}

/**
 * A new one-time reset token for the person; every earlier one of theirs stops working (a newer
 * link replaces an older one). Only its SHA-256 is stored.
 */
export async function issueResetToken(db: Db, userId: string, via: ResetVia, ttlSeconds: number, now: Date) {
  const token = newToken();
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("password_reset_tokens")
      .set({ consumed_at: now })
      .where("user_id", "=", userId)
      .where("consumed_at", "is", null)
      .execute();
    await tx
      .insertInto("password_reset_tokens")
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        via,
        created_at: now,
        expires_at: new Date(now.getTime() + ttlSeconds * 1000),
      })
      .execute();
  });
  return token;
}

/** Whose token this is while it is good (not used, not replaced, not expired); undefined otherwise. */
export async function findUsableResetToken(db: Db, token: string, now: Date): Promise<ResetHolder | undefined> {
  const row = await db
    .selectFrom("password_reset_tokens")
    .select(["user_id", "via"])
    .where("token_hash", "=", hashToken(token))
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, via: row.via } : undefined;
}

/** Uses the token up atomically: of two concurrent uses only one wins. */
export async function consumeResetToken(db: Db, token: string, now: Date): Promise<ResetHolder | undefined> {
  const row = await db
    .updateTable("password_reset_tokens")
    .set({ consumed_at: now })
    .where("token_hash", "=", hashToken(token))
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "via"])
    .executeTakeFirst();
  return row ? { userId: row.user_id, via: row.via } : undefined;
}

/** Tokens past their expiry (used or not) are of no further use. */
export async function deleteExpiredResetTokens(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("password_reset_tokens").where("expires_at", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The person's reset links not yet used (erasure); answers how many there were. */
export async function deleteResetTokensOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("password_reset_tokens").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
