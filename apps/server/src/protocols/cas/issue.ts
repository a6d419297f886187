import type { FastifyReply, FastifyRequest } from "fastify";
import { issueCasTicket } from "../../model/cas/tickets.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { lastAuthenticatedAt, sessionAmr } from "../../model/sessions/strength.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { sendPostForm } from "../../platform/http/post-form.ts";

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
