import type { Db } from "../../platform/db/schema.ts";

/**
 * Forgets what the person allowed SAML service providers to receive (saml_consents), as
 * revokeOidcGrants forgets OpenID Connect consents: every SP's when the person is disabled,
 * those of the SPs linked to one application when access to it ends. The next sign-in to such
 * an SP asks again. (An SP removed from the registry takes its consents with it: on delete cascade.)
 */
export async function forgetSamlConsents(db: Db, filter: { userId: string; applicationId?: string }): Promise<number> {
  let consents = db.deleteFrom("saml_consents").where("user_id", "=", filter.userId);
  if (filter.applicationId)
    consents = consents.where(
      "sp_entity_id",
      "in",
      db.selectFrom("saml_service_providers").select("entity_id").where("application_id", "=", filter.applicationId),
    );
  return Number((await consents.executeTakeFirst()).numDeletedRows);
}

/** Whether the person already allowed this SP every attribute it would now receive. */
export async function hasSamlConsent(db: Db, userId: string, spEntityId: string, attributes: string[]) {
  const row = await db
    .selectFrom("saml_consents")
    .select("attributes")
    .where("user_id", "=", userId)
    .where("sp_entity_id", "=", spEntityId)
    .executeTakeFirst();
  return row !== undefined && attributes.every((name) => row.attributes.includes(name));
}

/** Remembers what the person allowed, so the next sign-in to the same SP asks only when it would receive more. */
export async function recordSamlConsent(db: Db, userId: string, spEntityId: string, attributes: string[], now: Date) {
  await db
    .insertInto("saml_consents")
    .values({ user_id: userId, sp_entity_id: spEntityId, attributes, created_at: now })
    .onConflict((conflict) =>
      conflict.columns(["user_id", "sp_entity_id"]).doUpdateSet({ attributes, created_at: now }),
    )
    .execute();
}
