import type { Db } from "../../platform/db/schema.ts";

// The SAML keys and federation signers `doctor`, the metrics and the console watch.

/** The SAML signing keys not retired, by id only. */
export function activeSamlKeyIds(db: Db) {
  return db.selectFrom("saml_signing_keys").select("kid").where("retired_at", "is", null).execute();
}

/** The SAML signing keys not retired, with their certificates. */
export function activeSamlCertificates(db: Db) {
  return db.selectFrom("saml_signing_keys").select(["kid", "certificate"]).where("retired_at", "is", null).execute();
}

/** Each federation's metadata signer. */
export function federationSigners(db: Db) {
  return db.selectFrom("saml_federations").select(["name", "certificate"]).execute();
}
