import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type CasSignIn, endedSessionIdsOf, takeCasSignIns } from "../../model/cas/sign-ins.ts";
import { endProxyGrantingTickets } from "../../model/cas/tickets.ts";
import type { SignOutParticipant } from "../../model/sessions/sign-out.ts";

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
 * CAS's part in every sign-out. In the transaction: the sessions' proxy-granting tickets end and their sign-ins
 * are taken, with those of the person's sessions already gone (a sign-in again in the same browser, `renew` or a
 * step-up, replaces the session the earlier tickets were issued in, and the services they opened are still open).
 * After the commit each service that asked for single logout gets a back-channel LogoutRequest naming the ticket
 * it validated, all at once; one that cannot be reached is logged and never blocks the sign-out.
 */
export function casSignOut(app: FastifyInstance): SignOutParticipant<CasSignIn[]> {
  return {
    name: "cas",
    async withinTransaction(tx, ending) {
      const sessionIds = [...ending.sessionIds, ...(await endedSessionIdsOf(tx, ending.userId))];
      await endProxyGrantingTickets(tx, sessionIds);
      return takeCasSignIns(tx, sessionIds);
    },
    async afterCommit(_ending, signIns) {
      const now = app.clock();
      await Promise.all(signIns.map((signIn) => tellService(app.log, signIn.service, signIn.spentTicket, now)));
    },
  };
}
