import type { Db } from "../../platform/db/schema.ts";

/** The OpenID Connect signing keys not retired (`doctor` warns when there is none). */
export function activeOidcKeyIds(db: Db) {
  return db.selectFrom("oidc_signing_keys").select("kid").where("retired_at", "is", null).execute();
}
