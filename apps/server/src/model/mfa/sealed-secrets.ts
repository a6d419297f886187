import type { Db } from "../../platform/db/schema.ts";

// The authenticator apps' secrets as sealed with SESSION_SECRET, for `secrets reseal` and `doctor`.

/** Every authenticator app's sealed secret. */
export function sealedTotpSecrets(db: Db) {
  return db.selectFrom("totp_factors").select(["user_id", "secret_sealed"]).execute();
}

/** Replaces a person's sealed secret with the same secret sealed under the newest key. */
export async function resealTotpSecret(db: Db, userId: string, sealed: string): Promise<void> {
  await db.updateTable("totp_factors").set({ secret_sealed: sealed }).where("user_id", "=", userId).execute();
}
