import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { endedSessionIdsOf, takeCasSignIns } from "../../model/cas/sign-ins.ts";
import { endProxyGrantingTickets } from "../../model/cas/tickets.ts";
import type { Db } from "../../platform/db/schema.ts";
import { currentSession } from "../../sign-in/session/current.ts";

/** How long one service may take to hear its LogoutRequest: a sign-out does not wait on a slow service longer. */
const noticeTimeoutMs = 3000;

const samlProtocol = "urn:oasis:names:tc:SAML:2.0:protocol";
const samlAssertion = "urn:oasis:names:tc:SAML:2.0:assertion";

/** The SAML LogoutRequest CAS servers post (CAS Protocol 3.0 §2.3.3, Appendix C), built with xmldom's DOM. */
async function logoutRequestXml(spentTicket: string, now: Date): Promise<string> {
  const { DOMImplementation, XMLSerializer } = await import("@xmldom/xmldom");
  const document = new DOMImplementation().createDocument(samlProtocol, "samlp:LogoutRequest", null);
  const root = document.documentElement;
  if (!root) throw new Error("xmldom made no root element");
  root.setAttribute("ID", `LR-${randomBytes(16).toString("hex")}`);
  root.setAttribute("Version", "2.0");
  root.setAttribute("IssueInstant", now.toISOString());
  const nameId = document.createElementNS(samlAssertion, "saml:NameID");
  // The specification's own placeholder: the service finds its session by the ticket, not by a name.
  nameId.appendChild(document.createTextNode("@NOT_USED@"));
  root.appendChild(nameId);
  const sessionIndex = document.createElementNS(samlProtocol, "samlp:SessionIndex");
  sessionIndex.appendChild(document.createTextNode(spentTicket));
  root.appendChild(sessionIndex);
  return new XMLSerializer().serializeToString(document);
}

async function tellService(log: FastifyBaseLogger, service: string, spentTicket: string, now: Date) {
  try {
    const response = await fetch(service, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ logoutRequest: await logoutRequestXml(spentTicket, now) }),
      redirect: "manual",
      signal: AbortSignal.timeout(noticeTimeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 400)
      log.warn({ service: new URL(service).origin, status: response.status }, "cas: single logout refused");
  } catch (error) {
    log.warn({ service: new URL(service).origin, err: error }, "cas: single logout could not reach the service");
  }
}

/**
 * The KPI ID sessions that end take their CAS sign-ins with them: each service that asked for single logout
 * gets a back-channel LogoutRequest naming the ticket it validated, all at once; the proxy-granting tickets
 * issued in those sessions end. A service that cannot be reached is logged and never blocks the sign-out.
 */
export async function endCasSessions(db: Db, log: FastifyBaseLogger, sessionIds: readonly string[], now: Date) {
  await endProxyGrantingTickets(db, sessionIds);
  const signIns = await takeCasSignIns(db, sessionIds);
  await Promise.all(signIns.map((signIn) => tellService(log, signIn.service, signIn.spentTicket, now)));
}

/**
 * This browser's KPI ID session is about to end (KPI ID's and CAS's sign-out routes call this first). The
 * person's CAS sign-ins whose KPI ID session is already gone end with it: a sign-in again in the same browser
 * (`renew`, a step-up) replaces the session the earlier tickets were issued in, and the services those tickets
 * opened are still open in this browser, so signing out must reach them too.
 */
export async function endCasSessionInBrowser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = await currentSession(request, reply);
  if (!session) return;
  const { db } = request.server;
  const replaced = await endedSessionIdsOf(db, session.userId);
  await endCasSessions(db, request.log, [session.id, ...replaced], request.server.clock());
}

/** The person's sessions ended elsewhere (a password change, a reset): those sessions' CAS sign-ins end too. */
export async function endEndedCasSessions(app: FastifyInstance, userId: string): Promise<void> {
  await endCasSessions(app.db, app.log, await endedSessionIdsOf(app.db, userId), app.clock());
}
