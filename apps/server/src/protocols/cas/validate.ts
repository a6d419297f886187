import type { IntegrationFailureReason } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { findCasService } from "../../model/cas/services.ts";
import { recordCasSignIn } from "../../model/cas/sign-ins.ts";
import { issueCasTicket, newCasTicket, spendCasTicket, type UsedCasTicket } from "../../model/cas/tickets.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { personRoles } from "../../model/people/profile.ts";
import { findUserById } from "../../model/users/queries.ts";
import { audit } from "../../platform/http/audit.ts";
import { type CasFailure, type CasValidation, casFailure } from "./answers.ts";
import { releasedAttributes } from "./attributes.ts";
import { deliverProxyGrantingTicket, proxyCallbackProblem } from "./proxy-callback.ts";

export interface ValidationFields {
  service?: string;
  ticket?: string;
  pgtUrl?: string;
  renew?: string;
}

export interface ValidationKind {
  /** /proxyValidate accepts proxy tickets; /serviceValidate and /validate only service tickets (§2.5.1). */
  proxyTickets: boolean;
  /** CAS 1.0's /validate has no proxy callback. */
  proxyCallback: boolean;
}

const isTrue = (value: string | undefined) => value === "true" || value === "1";

/**
 * Audits a refused validation and notes it in the application's health, under the reason whose fix the developer
 * needs: a ticket problem (ticket_invalid) reads "redeem each ticket once, at once", which would mislead one whose
 * service address or proxy callback is wrong.
 */
async function refuse(
  request: FastifyRequest,
  failure: CasFailure,
  applicationId?: string,
  reason: IntegrationFailureReason = "ticket_invalid",
): Promise<CasFailure> {
  await audit(request, {
    type: "ticket_exchange",
    result: "failure",
    applicationId,
    reason: `cas.${failure.code.toLowerCase()}`,
    details: { via: "cas" },
  });
  if (applicationId) await recordIntegrationFailure(request.server.db, applicationId, "cas", reason);
  return failure;
}

/** The proxy-granting ticket a validation hands to its callback, with its IOU for the answer; none on failure. */
async function grantProxying(request: FastifyRequest, spent: UsedCasTicket, service: string, pgtUrl: string) {
  const { db, clock, config, log } = request.server;
  const pgtId = newCasTicket("PGT");
  const pgtIou = newCasTicket("PGTIOU");
  if (!(await deliverProxyGrantingTicket(log, pgtUrl, pgtId, pgtIou))) {
    // The validation still succeeds (§2.5.4), so only the health view tells the developer their callback failed.
    await recordIntegrationFailure(db, spent.applicationId, "cas", "proxy_callback_refused");
    return undefined;
  }
  // The chain a proxy ticket from this PGT will report: this callback first, then the ones before it (§2.6.2).
  const granting = { ...spent, kind: "PGT" as const, service, proxies: [pgtUrl, ...spent.proxies] };
  await issueCasTicket(db, granting, config.sessions.absoluteTimeoutSeconds, clock(), pgtId);
  return pgtIou;
}

/**
 * One ticket validation (CAS Protocol 3.0 §2.4–2.6): the ticket is spent whatever the outcome past its lookup, then
 * checked against the service it was issued for, `renew`, the person's access now, and the service's right to a
 * proxy callback. Every failure is audited and, when the application is known, noted in its integration health.
 */
export async function validateTicket(
  request: FastifyRequest,
  fields: ValidationFields,
  kind: ValidationKind,
  withAttributes: boolean,
): Promise<CasValidation | CasFailure> {
  const { db, clock, applicationCache } = request.server;
  const { service, ticket, pgtUrl } = fields;
  if (!service || !ticket) return refuse(request, casFailure("INVALID_REQUEST", "service and ticket are required"));
  const registered = await findCasService(db, service);
  if (ticket.startsWith("PT-") && !kind.proxyTickets) {
    const failure = casFailure("INVALID_TICKET", "a proxy ticket is validated at /proxyValidate, not here");
    return refuse(request, failure, registered?.applicationId, "proxy_ticket_at_service_validate");
  }
  const spent = await spendCasTicket(db, ticket, clock());
  if (!spent) {
    const failure = casFailure("INVALID_TICKET", "the ticket is not recognized, was used already or has expired");
    return refuse(request, failure, registered?.applicationId);
  }
  if (spent.kind === "PT" && !kind.proxyTickets) {
    const failure = casFailure("INVALID_TICKET", "a proxy ticket is validated at /proxyValidate, not here");
    return refuse(request, failure, spent.applicationId, "proxy_ticket_at_service_validate");
  }
  if (spent.service !== service || registered?.applicationId !== spent.applicationId) {
    const failure = casFailure("INVALID_SERVICE", "the ticket was issued for another service; it is spent now");
    return refuse(request, failure, spent.applicationId, "service_mismatch");
  }
  if (isTrue(fields.renew) && !spent.fromNewLogin) {
    const failure = casFailure("INVALID_TICKET_SPEC", "renew: the ticket did not come from a sign-in made for it");
    return refuse(request, failure, spent.applicationId, "renew_not_met");
  }
  const application = await cachedApplicationById(applicationCache, db, spent.applicationId);
  const user = await findUserById(db, spent.userId);
  if (!application || !user || !(await hasApplicationAccess(db, user.id, application.id))) {
    const failure = casFailure("INVALID_TICKET", "the person may no longer use this service");
    return refuse(request, failure, spent.applicationId, "no_access");
  }
  let pgtIou: string | undefined;
  if (pgtUrl !== undefined && kind.proxyCallback) {
    if (!registered.proxy) {
      const failure = casFailure("UNAUTHORIZED_SERVICE_PROXY", "this service may not receive proxy-granting tickets");
      return refuse(request, failure, application.id, "proxy_not_allowed");
    }
    const problem = proxyCallbackProblem(pgtUrl, service);
    if (problem) {
      return refuse(request, casFailure("INVALID_PROXY_CALLBACK", problem), application.id, "proxy_callback_refused");
    }
    pgtIou = await grantProxying(request, spent, service, pgtUrl);
  }
  if (registered.singleLogout && spent.kind === "ST" && spent.sessionId) {
    const signIn = { applicationId: application.id, service, spentTicket: ticket };
    await recordCasSignIn(db, { ...signIn, sessionId: spent.sessionId, userId: user.id }, clock());
  }
  await audit(request, {
    type: "ticket_exchange",
    result: "success",
    applicationId: application.id,
    userId: user.id,
    authMethod: spent.authMethod,
    details: { via: "cas", ticket: spent.kind, ...(pgtIou && { proxyGrantingTicket: true }) },
  });
  const attributes = withAttributes
    ? releasedAttributes(registered, application, user, await personRoles(db, user.id), spent)
    : undefined;
  return { kind: "success", user: user.username, attributes, pgtIou, proxies: spent.proxies };
}
