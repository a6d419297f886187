import type { FastifyRequest } from "fastify";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { findCasService } from "../../model/cas/services.ts";
import { findProxyGrantingTicket, issueCasTicket } from "../../model/cas/tickets.ts";
import { findUserById } from "../../model/users/queries.ts";
import { audit } from "../../platform/http/audit.ts";
import { passGate, ticketConsentMissing } from "../../sign-in/gate/gate.ts";
import type { CasFailure, CasProxyAnswer } from "./answers.ts";
import { casFailure } from "./answers.ts";

async function refuse(request: FastifyRequest, failure: CasFailure, applicationId?: string): Promise<CasFailure> {
  await audit(request, {
    type: "app_redirect",
    result: "failure",
    applicationId,
    reason: `cas.${failure.code.toLowerCase()}`,
    details: { via: "cas", proxy: true },
  });
  return failure;
}

/**
 * /cas/proxy (§2.7): a proxy ticket for a back-end service, from a proxy-granting ticket. The back end must be a
 * registered CAS service, and the person must be let into its application now as a login would let them in
 * (access, its second factor, consent): nobody reaches through a proxy what they could not open themselves.
 */
export async function proxyTicket(
  request: FastifyRequest,
  pgt: string | undefined,
  targetService: string | undefined,
): Promise<CasProxyAnswer> {
  const { db, clock, config, applicationCache } = request.server;
  if (!pgt || !targetService)
    return refuse(request, casFailure("INVALID_REQUEST", "pgt and targetService are required"));
  const granting = await findProxyGrantingTicket(db, pgt, clock());
  if (!granting)
    return refuse(request, casFailure("INVALID_TICKET", "the proxy-granting ticket is not recognized or has ended"));
  const target = await findCasService(db, targetService);
  const application = target && (await cachedApplicationById(applicationCache, db, target.applicationId));
  if (!application) return refuse(request, casFailure("UNAUTHORIZED_SERVICE", "the target service is not registered"));
  const user = await findUserById(db, granting.userId);
  const session = user && {
    id: granting.sessionId ?? "",
    userId: user.id,
    authMethod: granting.authMethod,
    createdAt: granting.authenticatedAt,
    amr: granting.amr,
    strongAt: null,
    user,
  };
  const needsConsent = ticketConsentMissing(request, application);
  if (!session || (await passGate(request, { session, application, needsConsent })).kind !== "issue") {
    return refuse(
      request,
      casFailure("UNAUTHORIZED_SERVICE", "the person may not use the target service"),
      application.id,
    );
  }
  const proxied = {
    ...granting,
    kind: "PT" as const,
    applicationId: application.id,
    service: targetService,
    fromNewLogin: false,
  };
  const value = await issueCasTicket(db, proxied, config.casTicketTtlSeconds, clock());
  await audit(request, {
    type: "app_redirect",
    result: "success",
    applicationId: application.id,
    userId: user.id,
    authMethod: granting.authMethod,
    details: { via: "cas", proxy: true },
  });
  return { kind: "success", proxyTicket: value };
}
