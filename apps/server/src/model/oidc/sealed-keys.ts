import { newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { decryptJwkWithRing, encryptJwk, type PrivateJwk, SigningKeyDecryptionError } from "./keys.ts";

// Signing keys as sealed with SESSION_SECRET, for `secrets reseal` and `doctor`: OpenID Connect's here, SAML's
// (model/saml/sealed-keys.ts) the same way.

/** A stored signing key: its id (bound into the seal) and its sealed JWK. */
export interface SealedSigningKey {
  kid: string;
  encrypted_jwk: string;
}

/**
 * Counts the keys only an older key of the ring opens, and those no key opens; with `reseal`, hands `write` each
 * of the first sealed again under the newest key.
 */
export async function checkSealedSigningKeys(
  keys: readonly SealedSigningKey[],
  ring: SecretRing,
  reseal: boolean,
  write: (kid: string, encrypted: string) => Promise<void>,
): Promise<{ olderKey: number; unreadable: number }> {
  const counts = { olderKey: 0, unreadable: 0 };
  for (const key of keys) {
    let opened: { value: PrivateJwk; olderKey: boolean };
    try {
      opened = decryptJwkWithRing(key.kid, key.encrypted_jwk, ring);
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      counts.unreadable++;
      continue;
    }
    if (!opened.olderKey) continue;
    counts.olderKey++;
    if (reseal) await write(key.kid, encryptJwk(opened.value, newestKey(ring)));
  }
  return counts;
}

/** OpenID Connect's signing keys, counted and (with `reseal`) sealed again under the ring's newest key. */
export async function checkSealedOidcKeys(db: Db, ring: SecretRing, reseal: boolean) {
  const keys = await db.selectFrom("oidc_signing_keys").select(["kid", "encrypted_jwk"]).execute();
  return checkSealedSigningKeys(keys, ring, reseal, async (kid, encrypted) => {
    await db.updateTable("oidc_signing_keys").set({ encrypted_jwk: encrypted }).where("kid", "=", kid).execute();
  });
}
