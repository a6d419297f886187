import type { Db } from "../db/schema.ts";

/**
 * Records the person's first sign-in and says whether this is it. A browser without this person in
 * its device cookie (device-cookie.ts) is new to them, and they are told by mail, except at their
 * very first sign-in, when there is nothing to compare with yet. Kept on the person, not read from
 * the audit log, which AUDIT_RETENTION_DAYS prunes; one statement that writes only the first time.
 */
export async function markFirstSignIn(db: Db, userId: string, now: Date): Promise<boolean> {
  const first = await db
    .updateTable("users")
    .set({ first_signed_in_at: now })
    .where("id", "=", userId)
    .where("first_signed_in_at", "is", null)
    .executeTakeFirst();
  return Number(first.numUpdatedRows) > 0;
}
