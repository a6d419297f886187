// What sign-in methods, the seed and the CLI ask of and note about a person (issue 58: the users table is written
// only in model/users).
import { sql } from "kysely";
import type { Db, User } from "../../platform/db/schema.ts";

/** The active person with this tax id (Diia's callback knows a person only by it). */
export async function findActiveUserIdByTaxId(db: Db, taxId: string): Promise<string | undefined> {
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("tax_id", "=", taxId)
    .where("status", "=", "active")
    .executeTakeFirst();
  return user?.id;
}

/** A sign-in method vouched for the person's own address: OIDC's `email_verified` now says so. */
export async function markEmailVerified(db: Db, userId: string, email: string | null): Promise<void> {
  await db.updateTable("users").set({ verified_email: email }).where("id", "=", userId).execute();
}

/** Active people holding this e-mail address (at most two: enough to tell one from many). */
export function findActiveUsersByEmail(db: Db, email: string): Promise<User[]> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("status", "=", "active")
    .limit(2)
    .execute();
}

/** Whether anybody has an account yet (the demo campus is seeded only into an empty database). */
export async function anyoneRegistered(db: Db): Promise<boolean> {
  return (await db.selectFrom("users").select("id").limit(1).executeTakeFirst()) !== undefined;
}

/** The operator's requirement of a second factor for this person (`admin user mfa`). */
export async function requireSecondFactor(db: Db, userId: string, required: boolean): Promise<void> {
  await db.updateTable("users").set({ require_mfa: required }).where("id", "=", userId).execute();
}
