import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

// An erased person's username is never given again (docs/privacy.md): the account's area keeps the list, so creating
// an account (service.ts) and SCIM ask it here, and erasure (model/privacy/erase.ts) adds to it.

/** A username kept for ever as SHA-256 of its lower-cased form (retired_usernames, migration 0460). */
export const usernameDigest = (username: string) => hashToken(`kpi-id username\n${username.toLowerCase()}`);

/** Whether the username belonged to an anonymised person, so no one is given it again. */
export async function isRetiredUsername(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom("retired_usernames")
    .select("retired_at")
    .where("username_sha256", "=", usernameDigest(username))
    .executeTakeFirst();
  return row !== undefined;
}

/** Retires the username of a person being erased (once: a second erasure of the same name changes nothing). */
export async function retireUsername(db: Db, username: string, now: Date): Promise<void> {
  await db
    .insertInto("retired_usernames")
    .values({ username_sha256: usernameDigest(username), retired_at: now })
    .onConflict((conflict) => conflict.column("username_sha256").doNothing())
    .execute();
}
