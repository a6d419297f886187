import type { Db } from "../../platform/db/schema.ts";

// The SAML signing keys as sealed with SESSION_SECRET, for `secrets reseal` and `doctor`.

/** Every SAML signing key, sealed. */
export function sealedSamlKeys(db: Db) {
  return db.selectFrom("saml_signing_keys").select(["kid", "encrypted_jwk"]).execute();
}

/** Replaces a key's sealed form with the same key sealed under the newest key. */
export async function resealSamlKey(db: Db, kid: string, encrypted: string): Promise<void> {
  await db.updateTable("saml_signing_keys").set({ encrypted_jwk: encrypted }).where("kid", "=", kid).execute();
}
