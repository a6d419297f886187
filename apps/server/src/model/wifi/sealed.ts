import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { newestKey } from "../../platform/crypto/key-ring.ts";
import { unsealWithRing } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";
import { networkPasswordHash, ntHashSealPurpose, storedNetworkPassword } from "./secrets.ts";

// The network passwords as kept with SESSION_SECRET's keys, for `secrets reseal` and `doctor`. Both stored
// forms are made from the NT hash (secrets.ts), so the sealed NT hash alone is enough to make them again.

export interface SealedNetworkPasswords {
  /** Sealed or keyed with an older key of the ring (or in an older form): lost with that key until resealed. */
  olderKey: number;
  /** Whose NT hash no key of the ring opens: gone, for PAP and PEAP alike, until that key is put back. */
  unreadable: number;
}

/**
 * Counts the network passwords not kept under the ring's newest key: the NT hash opened only by an older key,
 * or the PAP hash not the newest key's. With `reseal`, makes both again under the newest key from the NT hash.
 */
export async function checkSealedNetworkPasswords(
  db: Db,
  ring: SecretRing,
  reseal: boolean,
): Promise<SealedNetworkPasswords> {
  const rows = await db.selectFrom("wifi_passwords").select(["id", "secret_hash", "nt_hash_sealed"]).execute();
  const counts: SealedNetworkPasswords = { olderKey: 0, unreadable: 0 };
  for (const row of rows) {
    const opened = unsealWithRing(ring, ntHashSealPurpose, row.nt_hash_sealed);
    if (!opened) {
      counts.unreadable++;
      continue;
    }
    if (!opened.olderKey && row.secret_hash === networkPasswordHash(newestKey(ring), opened.value)) continue;
    counts.olderKey++;
    if (reseal) {
      await db
        .updateTable("wifi_passwords")
        .set(storedNetworkPassword(ring, opened.value))
        .where("id", "=", row.id)
        .execute();
    }
  }
  return counts;
}
