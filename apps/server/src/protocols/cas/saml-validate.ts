import type { FastifyReply, FastifyRequest } from "fastify";
import { validateTicket } from "./validate.ts";

/**
 * /samlValidate: the ticket from the SOAP body, the service from `TARGET`, validated as /serviceValidate validates
 * (service tickets only, no proxy callback), answered in SAML 1.1.
 */
export async function sendSamlValidation(
  request: FastifyRequest,
  reply: FastifyReply,
  query: { TARGET?: string | undefined; renew?: string | undefined },
) {
  const { ticketOfSamlRequest, samlValidationXml } = await import("./saml11.ts");
  // Only an XML body is read: a form another site's page posts (text/plain, urlencoded) carries no ticket here.
  const xml = /^(?:text\/xml|application\/(?:soap\+)?xml)\s*(?:;|$)/i.test(request.headers["content-type"] ?? "");
  const ticket = xml && typeof request.body === "string" ? ticketOfSamlRequest(request.body) : undefined;
  const service = query.TARGET;
  const answer = await validateTicket(
    request,
    { service, ticket, renew: query.renew },
    { proxyTickets: false, proxyCallback: false },
    true,
  );
  const issuer = new URL(request.server.config.publicUrl).origin;
  const answerXml = samlValidationXml(answer, { issuer, service, now: request.server.clock() });
  return reply.header("cache-control", "no-store").type("text/xml; charset=utf-8").send(answerXml);
}
