// The values KPI ID keeps sealed or keyed with SESSION_SECRET's keys, across the areas that keep them (issue 76:
// the transaction that reseals them all is the model's). Each area counts and reseals its own; this area owns no
// table.

import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { checkSealedTotpSecrets } from "../mfa/sealed-secrets.ts";
import { checkSealedOidcKeys } from "../oidc/sealed-keys.ts";
import { checkSealedSamlKeys } from "../saml/sealed-keys.ts";
import { checkSealedNetworkPasswords } from "../wifi/sealed.ts";

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

/** Each kind of sealed value, counted and (with `reseal`) sealed again by the area that keeps it. */
const checks: Record<
  keyof SealedCounts,
  (db: Db, ring: SecretRing, reseal: boolean) => Promise<{ olderKey: number; unreadable: number }>
> = {
  totpFactors: checkSealedTotpSecrets,
  oidcSigningKeys: checkSealedOidcKeys,
  samlSigningKeys: checkSealedSamlKeys,
  wifiPasswords: checkSealedNetworkPasswords,
};

/**
 * Reads every value sealed or keyed with SESSION_SECRET (TOTP secrets, the OpenID Connect and SAML signing keys,
 * Wi-Fi network passwords) and counts those only an older key opens; with `reseal`, seals them again under the
 * newest key in one transaction, so the older key can then be removed without losing anything.
 */
export async function checkSealedValues(db: Db, ring: SecretRing, reseal = false): Promise<SealedValuesReport> {
  return db.transaction().execute(async (tx) => {
    const report: SealedValuesReport = {
      olderKey: { totpFactors: 0, oidcSigningKeys: 0, samlSigningKeys: 0, wifiPasswords: 0 },
      unreadable: { totpFactors: 0, oidcSigningKeys: 0, samlSigningKeys: 0, wifiPasswords: 0 },
    };
    for (const [kind, check] of Object.entries(checks) as [keyof SealedCounts, (typeof checks)[keyof SealedCounts]][]) {
      const counted = await check(tx, ring, reseal);
      report.olderKey[kind] = counted.olderKey;
      report.unreadable[kind] = counted.unreadable;
    }
    return report;
  });
}
