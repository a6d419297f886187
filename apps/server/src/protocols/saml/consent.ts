import type { FastifyRequest } from "fastify";
import { isFirstParty } from "../../model/access/ticket-consents.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * Whether the SP releases without asking. Linked to an application, it follows that application's rule, the
 * one OpenID Connect uses (a community application is never first-party, whatever a flag says); an SP of its
 * own follows its own first-party flag.
 */
export async function isFirstPartySp(
  request: FastifyRequest,
  sp: { first_party: boolean; application_id: string | null },
): Promise<boolean> {
  if (!sp.application_id) return sp.first_party;
  const { applicationCache, db } = request.server;
  const application = await cachedApplicationById(applicationCache, db, sp.application_id);
  return application ? isFirstParty(application) : sp.first_party;
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

/** The person said no: the request is answered RequestDenied when the browser comes back to it. */
export async function declinePendingRequest(db: Db, id: string) {
  await db.updateTable("saml_pending_requests").set({ declined: true }).where("id", "=", id).execute();
}
