import { newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal, unsealWithRing } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";
import { totpSealPurpose } from "./totp.ts";

// The authenticator apps' secrets as sealed with SESSION_SECRET, for `secrets reseal` and `doctor`.

/**
 * Counts the authenticator apps' secrets only an older key of the ring opens, and those no key opens; with
 * `reseal`, seals the first again under the newest key.
 */
export async function checkSealedTotpSecrets(
  db: Db,
  ring: SecretRing,
  reseal: boolean,
): Promise<{ olderKey: number; unreadable: number }> {
  const factors = await db.selectFrom("totp_factors").select(["user_id", "secret_sealed"]).execute();
  const counts = { olderKey: 0, unreadable: 0 };
  for (const factor of factors) {
    const opened = unsealWithRing(ring, totpSealPurpose, factor.secret_sealed);
    if (!opened) {
      counts.unreadable++;
      continue;
    }
    if (!opened.olderKey) continue;
    counts.olderKey++;
    if (!reseal) continue;
    const sealed = seal(newestKey(ring), totpSealPurpose, opened.value);
    await db.updateTable("totp_factors").set({ secret_sealed: sealed }).where("user_id", "=", factor.user_id).execute();
  }
  return counts;
}
