import { resealTotpSecret, sealedTotpSecrets } from "../../model/mfa/sealed-secrets.ts";
import { totpSealPurpose } from "../../model/mfa/totp.ts";
import { decryptJwkWithRing, encryptJwk, type PrivateJwk, SigningKeyDecryptionError } from "../../model/oidc/keys.ts";
import { resealOidcKey, sealedOidcKeys } from "../../model/oidc/sealed-keys.ts";
import { resealSamlKey, sealedSamlKeys } from "../../model/saml/sealed-keys.ts";
import { checkSealedNetworkPasswords } from "../../model/wifi/sealed.ts";
import { newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal, unsealWithRing } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";

/** What the database holds sealed with SESSION_SECRET's keys, by table. */
export interface SealedCounts {
  totpFactors: number;
  oidcSigningKeys: number;
  samlSigningKeys: number;
  /** Wi-Fi network passwords: their sealed NT hash and their keyed PAP hash (model/wifi/sealed.ts). */
  wifiPasswords: number;
}

export interface SealedValuesReport {
  /** Opened only by an older key of the ring: removing that key would lose them until resealed. */
  olderKey: SealedCounts;
  /** Opened by no key of the ring: the key they were sealed with is gone. */
  unreadable: SealedCounts;
}

const noneCounted = (): SealedCounts => ({ totpFactors: 0, oidcSigningKeys: 0, samlSigningKeys: 0, wifiPasswords: 0 });

/** Where each kind of signing key is kept: read all, and write one back resealed. */
const keyStores = {
  oidc_signing_keys: { read: sealedOidcKeys, write: resealOidcKey },
  saml_signing_keys: { read: sealedSamlKeys, write: resealSamlKey },
};
type KeyTable = keyof typeof keyStores;

async function checkKeys(
  db: Db,
  table: KeyTable,
  ring: SecretRing,
  reseal: boolean,
): Promise<{ olderKey: number; unreadable: number }> {
  const rows = await keyStores[table].read(db);
  let olderKey = 0;
  let unreadable = 0;
  for (const row of rows) {
    let opened: { value: PrivateJwk; olderKey: boolean };
    try {
      opened = decryptJwkWithRing(row.kid, row.encrypted_jwk, ring);
    } catch (error) {
      if (!(error instanceof SigningKeyDecryptionError)) throw error;
      unreadable++;
      continue;
    }
    if (!opened.olderKey) continue;
    olderKey++;
    if (reseal) {
      const encrypted = encryptJwk(opened.value, newestKey(ring));
      await keyStores[table].write(db, row.kid, encrypted);
    }
  }
  return { olderKey, unreadable };
}

/**
 * Reads every value sealed or keyed with SESSION_SECRET (TOTP secrets, the OpenID Connect and SAML signing keys,
 * Wi-Fi network passwords) and counts those only an older key opens; with `reseal`, seals them again under the
 * newest key in one transaction, so the older key can then be removed without losing anything.
 */
export async function checkSealedValues(db: Db, ring: SecretRing, reseal = false): Promise<SealedValuesReport> {
  return db.transaction().execute(async (tx) => {
    const report: SealedValuesReport = { olderKey: noneCounted(), unreadable: noneCounted() };
    const factors = await sealedTotpSecrets(tx);
    for (const factor of factors) {
      const opened = unsealWithRing(ring, totpSealPurpose, factor.secret_sealed);
      if (!opened) {
        report.unreadable.totpFactors++;
        continue;
      }
      if (!opened.olderKey) continue;
      report.olderKey.totpFactors++;
      if (reseal) {
        const sealed = seal(newestKey(ring), totpSealPurpose, opened.value);
        await resealTotpSecret(tx, factor.user_id, sealed);
      }
    }
    for (const [table, counted] of [
      ["oidc_signing_keys", "oidcSigningKeys"],
      ["saml_signing_keys", "samlSigningKeys"],
    ] as const) {
      const { olderKey, unreadable } = await checkKeys(tx, table, ring, reseal);
      report.olderKey[counted] = olderKey;
      report.unreadable[counted] = unreadable;
    }
    const wifi = await checkSealedNetworkPasswords(tx, ring, reseal);
    report.olderKey.wifiPasswords = wifi.olderKey;
    report.unreadable.wifiPasswords = wifi.unreadable;
    return report;
  });
}
