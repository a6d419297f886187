import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { checkSealedSigningKeys } from "../oidc/sealed-keys.ts";

// The SAML signing keys as sealed with SESSION_SECRET, for `secrets reseal` and `doctor` (sealed as OpenID
// Connect's are: model/oidc/keys.ts).

/** SAML's signing keys, counted and (with `reseal`) sealed again under the ring's newest key. */
export async function checkSealedSamlKeys(db: Db, ring: SecretRing, reseal: boolean) {
  const keys = await db.selectFrom("saml_signing_keys").select(["kid", "encrypted_jwk"]).execute();
  return checkSealedSigningKeys(keys, ring, reseal, async (kid, encrypted) => {
    await db.updateTable("saml_signing_keys").set({ encrypted_jwk: encrypted }).where("kid", "=", kid).execute();
  });
}
