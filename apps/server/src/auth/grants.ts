import type { AuthMethod } from "@kpi-id/contracts";
import type { Kysely } from "kysely";
import { hashToken, newToken } from "../crypto/tokens.ts";
import type { Database } from "../db/schema.ts";

export interface GrantedLogin {
  userId: string;
  authMethod: AuthMethod;
}

/**
 * A one-time login grant: what a credential check (password, Diia) hands to the
 * browser as `sessionId`, to be exchanged once for a session cookie.
 */
export async function issueLoginGrant(
  db: Kysely<Database>,
  login: GrantedLogin,
  ttlSeconds: number,
  now: Date = new Date(),
): Promise<string> {
  const grant = newToken();
  await db
    .insertInto("login_grants")
    .values({
      grant_hash: hashToken(grant),
      user_id: login.userId,
      auth_method: login.authMethod,
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return grant;
}

/**
 * Consumes a grant atomically: of two concurrent attempts only one wins.
 * Unknown, used and expired grants all give undefined.
 */
export async function consumeLoginGrant(
  db: Kysely<Database>,
  grant: string,
  now: Date = new Date(),
): Promise<GrantedLogin | undefined> {
  const row = await db
    .updateTable("login_grants")
    .set({ consumed_at: now })
    .where("grant_hash", "=", hashToken(grant))
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "auth_method"])
    .executeTakeFirst();
  return row ? { userId: row.user_id, authMethod: row.auth_method } : undefined;
}
