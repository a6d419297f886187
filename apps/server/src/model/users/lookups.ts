// Look-ups of people by what a sign-in method knows of them (issue 58: the users table is read only here and in
// the other model/users modules).
import type { Db } from "../../platform/db/schema.ts";

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
