import type { Db } from "../../platform/db/schema.ts";

/** Uses kept per application password: the five the account page shows, and enough to know returning clients. */
export const usesKeptPerPassword = 20;

/** Records an accepted bind with an application password and keeps only its latest uses. */
export async function recordApplicationPasswordUse(
  db: Db,
  use: { passwordId: string; userId: string; clientId: string | null; peer: string | null; now: Date },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.updateTable("ldap_passwords").set({ last_used_at: use.now }).where("id", "=", use.passwordId).execute();
    await tx
      .insertInto("ldap_uses")
      .values({
        password_id: use.passwordId,
        user_id: use.userId,
        client_id: use.clientId,
        used_at: use.now,
        peer: use.peer?.slice(0, 100) ?? null,
      })
      .execute();
    await tx
      .deleteFrom("ldap_uses")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("ldap_uses")
          .select("id")
          .where("password_id", "=", use.passwordId)
          .orderBy("used_at", "desc")
          .orderBy("id", "desc")
          .offset(usesKeptPerPassword),
      )
      .execute();
  });
}
