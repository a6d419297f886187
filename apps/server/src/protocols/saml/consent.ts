import type { FastifyRequest } from "fastify";
import { isFirstParty } from "../../model/access/ticket-consents.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";

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
