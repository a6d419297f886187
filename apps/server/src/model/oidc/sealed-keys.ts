import type { Db } from "../../platform/db/schema.ts";

// The OpenID Connect signing keys as sealed with SESSION_SECRET, for `secrets reseal` and `doctor`.

/** Every OpenID Connect signing key, sealed. */
export function sealedOidcKeys(db: Db) {
  return db.selectFrom("oidc_signing_keys").select(["kid", "encrypted_jwk"]).execute();
}

/** Replaces a key's sealed form with the same key sealed under the newest key. */
export async function resealOidcKey(db: Db, kid: string, encrypted: string): Promise<void> {
  await db.updateTable("oidc_signing_keys").set({ encrypted_jwk: encrypted }).where("kid", "=", kid).execute();
}
