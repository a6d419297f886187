import type { FastifyReply, FastifyRequest } from "fastify";
import { hasApplicationAccess } from "../../model/access/applications.ts";
import { hasTicketConsent, ticketAsksConsent } from "../../model/access/ticket-consents.ts";
import { issueCasTicket } from "../../model/cas/tickets.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { isMultiFactor, lastAuthenticatedAt, multiFactorRequired, sessionAmr } from "../../model/sessions/strength.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { sendPostForm } from "../saml/post-form.ts";

/** What stands between a signed-in person and a service ticket, decided as for every protocol. */
export type LoginHurdle = "no_access" | "step_up" | "consent" | undefined;

/**
 * The one decision of a CAS login: access (the same function as every protocol), the application's or the person's
 * second-factor requirement (the session's strength as model/sessions judges it), and consent for an application that is not
 * the university's own (the ticket path's consent: CAS releases the same data).
 */
export async function loginHurdle(
  request: FastifyRequest,
  session: LoadedSession,
  application: ApplicationRow,
): Promise<LoginHurdle> {
  const { db } = request.server;
  if (!(await hasApplicationAccess(db, session.userId, application.id))) return "no_access";
  if (multiFactorRequired(session.user, application) && !isMultiFactor(session)) return "step_up";
  if (ticketAsksConsent(application) && !(await hasTicketConsent(db, session.userId, application))) return "consent";
  return undefined;
}

/** The service address with `ticket` added, keeping its own query (§2.2.4). */
export function serviceWithTicket(service: string, ticket: string): string {
  const separator = !service.includes("?") ? "?" : /[?&]$/.test(service) ? "" : "&";
  return `${service}${separator}${new URLSearchParams({ ticket })}`;
}

/**
 * Issues the service ticket, bound to the exact service, and sends the browser there with it: a redirect, or with
 * method=POST a page whose form posts `ticket` (§2.1.1). `fromNewLogin`: the person presented credentials for this
 * login (what a validation's `renew=true` asks).
 */
export async function sendServiceTicket(
  request: FastifyRequest,
  reply: FastifyReply,
  target: {
    session: LoadedSession;
    application: ApplicationRow;
    service: string;
    post: boolean;
    fromNewLogin: boolean;
  },
) {
  const { db, clock, config } = request.server;
  const { session, application, service } = target;
  const ticket = await issueCasTicket(
    db,
    {
      kind: "ST",
      applicationId: application.id,
      service,
      userId: session.userId,
      sessionId: session.id,
      authMethod: session.authMethod,
      amr: sessionAmr(session),
      authenticatedAt: lastAuthenticatedAt(session),
      fromNewLogin: target.fromNewLogin,
    },
    config.casTicketTtlSeconds,
    clock(),
  );
  await audit(request, {
    type: "app_redirect",
    result: "success",
    authMethod: session.authMethod,
    userId: session.userId,
    applicationId: application.id,
    details: { via: "cas" },
  });
  reply.header("cache-control", "no-store");
  if (target.post) return sendPostForm(reply, service, { ticket });
  return reply.redirect(serviceWithTicket(service, ticket), 302);
}
