import { totpSealPurpose } from "../../model/mfa/totp.ts";
import { decryptJwkWithRing, encryptJwk, type PrivateJwk, SigningKeyDecryptionError } from "../../model/oidc/keys.ts";
import { newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal, unsealWithRing } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";

/** What the database holds sealed with SESSION_SECRET's keys, by table. */
export interface SealedCounts {
  totpFactors: number;
  oidcSigningKeys: number;
  samlSigningKeys: number;
}

export interface SealedValuesReport {
  /** Opened only by an older key of the ring: removing that key would lose them until resealed. */
  olderKey: SealedCounts;
  /** Opened by no key of the ring: the key they were sealed with is gone. */
  unreadable: SealedCounts;
}

const noneCounted = (): SealedCounts => ({ totpFactors: 0, oidcSigningKeys: 0, samlSigningKeys: 0 });

type KeyTable = "oidc_signing_keys" | "saml_signing_keys";

async function checkKeys(
  db: Db,
  table: KeyTable,
  ring: SecretRing,
  reseal: boolean,
): Promise<{ olderKey: number; unreadable: number }> {
  const rows = await db.selectFrom(table).select(["kid", "encrypted_jwk"]).execute();
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
      await db.updateTable(table).set({ encrypted_jwk: encrypted }).where("kid", "=", row.kid).execute();
    }
  }
  return { olderKey, unreadable };
}

/**
 * Reads every value sealed with SESSION_SECRET (TOTP secrets, the OpenID Connect and SAML signing keys)
 * and counts those only an older key opens; with `reseal`, seals them again under the newest key in one
 * transaction, so the older key can then be removed without losing anything.
 */
export async function checkSealedValues(db: Db, ring: SecretRing, reseal = false): Promise<SealedValuesReport> {
  return db.transaction().execute(async (tx) => {
    const report: SealedValuesReport = { olderKey: noneCounted(), unreadable: noneCounted() };
    const factors = await tx.selectFrom("totp_factors").select(["user_id", "secret_sealed"]).execute();
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
        await tx
          .updateTable("totp_factors")
          .set({ secret_sealed: sealed })
          .where("user_id", "=", factor.user_id)
          .execute();
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
    return report;
  });
}
