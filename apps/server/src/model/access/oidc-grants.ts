import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

export interface GrantFilter {
  userId?: string;
  clientId?: string;
  /** These grants only (one browser's, when it signs out). */
  grantIds?: string[];
  /** The person's remembered consent stays (a changed password ends tokens, not what the person allowed). */
  keepConsents?: boolean;
}

/**
 * Ends the person's (or the application's) OpenID Connect grants at once:
 * every grant, and every code, access and refresh token issued under it, and the remembered consent.
 * Called wherever access ends (revoke, a disabled person, OpenID Connect
 * turned off); the provider also re-checks access at every token use, so a
 * way of ending access that does not call this still stops the tokens.
 */
export async function revokeOidcGrants(db: Db, filter: GrantFilter): Promise<number> {
  if (!filter.userId && !filter.clientId && !filter.grantIds)
    throw new Error("revokeOidcGrants needs a person, an application or grants");
  if (filter.grantIds?.length === 0) return 0;
  let grants = db.selectFrom("oidc_payloads").select("id").where("type", "=", "Grant");
  if (filter.userId) grants = grants.where(sql<string>`payload->>'accountId'`, "=", filter.userId);
  if (filter.clientId) grants = grants.where(sql<string>`payload->>'clientId'`, "=", filter.clientId);
  if (filter.grantIds) grants = grants.where("id", "in", filter.grantIds);
  // Consent belongs to a person or an application: grants named alone (one browser's sign-out) leave it, where an
  // unfiltered delete would forget everyone's.
  if (!filter.keepConsents && (filter.userId || filter.clientId)) {
    let consents = db.deleteFrom("oidc_consents");
    if (filter.userId) consents = consents.where("user_id", "=", filter.userId);
    if (filter.clientId) consents = consents.where("application_id", "=", filter.clientId);
    await consents.execute();
  }
  const result = await db
    .deleteFrom("oidc_payloads")
    .where((eb) => eb.or([eb("grant_id", "in", grants), eb.and([eb("type", "=", "Grant"), eb("id", "in", grants)])]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The scopes this person consented to for this application, while the consent lasts. */
export function oidcConsentOf(db: Db, userId: string, applicationId: string, now: Date) {
  return db
    .selectFrom("oidc_consents")
    .select("scopes")
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

/** Records the person's "allow": these scopes, with those allowed before, until `expiresAt`. */
export async function recordOidcConsent(
  db: Db,
  consent: { userId: string; applicationId: string; scopes: string[]; expiresAt: Date },
): Promise<void> {
  const { expiresAt } = consent;
  await db
    .insertInto("oidc_consents")
    .values({
      user_id: consent.userId,
      application_id: consent.applicationId,
      scopes: consent.scopes,
      expires_at: expiresAt,
    })
    .onConflict((conflict) =>
      conflict.columns(["user_id", "application_id"]).doUpdateSet({
        scopes: sql<
          string[]
        >`array(select distinct s from unnest(oidc_consents.scopes || excluded.scopes) as s order by s)`,
        expires_at: expiresAt,
      }),
    )
    .execute();
}
