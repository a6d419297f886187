import type { Db } from "../../platform/db/schema.ts";

/**
 * Forgets what the person allowed SAML service providers to receive (saml_consents), as
 * revokeOidcGrants forgets OpenID Connect consents: every SP's when the person is disabled,
 * those of the SPs linked to one application when access to it ends. The next sign-in to such
 * an SP asks again. (An SP removed from the registry takes its consents with it: on delete cascade.)
 */
export async function forgetSamlConsents(db: Db, filter: { userId: string; applicationId?: string }): Promise<void> {
  let consents = db.deleteFrom("saml_consents").where("user_id", "=", filter.userId);
  if (filter.applicationId)
    consents = consents.where(
      "sp_entity_id",
      "in",
      db.selectFrom("saml_service_providers").select("entity_id").where("application_id", "=", filter.applicationId),
    );
  await consents.execute();
}
