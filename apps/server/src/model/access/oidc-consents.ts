import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** Forgets what the person (or everyone, for the application) allowed: asked again at the next sign-in. */
export async function forgetOidcConsents(db: Db, of: { userId?: string; applicationId?: string }): Promise<number> {
  if (!of.userId && !of.applicationId) throw new Error("forgetOidcConsents needs a person or an application");
  let consents = db.deleteFrom("oidc_consents");
  if (of.userId) consents = consents.where("user_id", "=", of.userId);
  if (of.applicationId) consents = consents.where("application_id", "=", of.applicationId);
  return Number((await consents.executeTakeFirst()).numDeletedRows);
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
