import type { FastifyRequest } from "fastify";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { sessionAmr } from "../../model/sessions/strength.ts";
import { issueTicket } from "../../model/tickets/store.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { callbackWithTicket } from "./callbacks.ts";

/**
 * Issues the one-time ticket and answers where the browser goes: the registered callback with `ticketId` (and
 * the application's state). Audited as the app redirect's success; `consent` notes a consent just given.
 */
export async function ticketRedirect(
  request: FastifyRequest,
  session: LoadedSession,
  application: Pick<ApplicationRow, "id">,
  target: { callback: string; state?: string; consent?: "given" },
): Promise<string> {
  const { db, config, clock } = request.server;
  const ticket = await issueTicket(
    db,
    {
      applicationId: application.id,
      userId: session.userId,
      authMethod: session.authMethod,
      amr: sessionAmr(session),
      sessionId: session.id,
    },
    config.ticketTtlSeconds,
    clock(),
  );
  await audit(request, {
    type: "app_redirect",
    result: "success",
    authMethod: session.authMethod,
    userId: session.userId,
    applicationId: application.id,
    ...(target.consent && { details: { consent: target.consent } }),
  });
  return callbackWithTicket(target.callback, ticket, target.state);
}
