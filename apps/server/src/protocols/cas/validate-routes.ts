import { casPaths, text } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendCas1, sendProxyAnswer, sendValidation } from "./answers.ts";
import { proxyTicket } from "./proxy.ts";
import { sendSamlValidation } from "./saml-validate.ts";
import { validateTicket } from "./validate.ts";

// Every field optional and odd values treated as missing: a malformed request is INVALID_REQUEST, never a 400 page.
const field = (max: number) => text().max(max).optional().catch(undefined);
const validationQuery = z.object({
  service: field(4096),
  ticket: field(512),
  pgtUrl: field(4096),
  renew: field(8),
  format: field(8),
});
const proxyQuery = z.object({ pgt: field(512), targetService: field(4096), format: field(8) });
const samlQuery = z.object({ TARGET: field(4096), renew: field(8) });
/** A samlp:Request holds one ticket: a few hundred bytes from phpCAS. */
const samlBodyLimit = 16 * 1024;

const tags = ["cas"];
const isJson = (format: string | undefined) => format?.toUpperCase() === "JSON";
const validationNote =
  "Server to server (CAS Protocol 3.0). A ticket validates once, for the exact service it was issued for, within " +
  "CAS_TICKET_TTL_SECONDS; a ticket validated for another service is spent (INVALID_SERVICE). `renew=true` accepts " +
  "only a ticket from a sign-in made for it (INVALID_TICKET_SPEC). `pgtUrl`: an https callback on the service's " +
  "host, for a service allowed to proxy (UNAUTHORIZED_SERVICE_PROXY, INVALID_PROXY_CALLBACK); it receives `pgtId` " +
  "and `pgtIou` and must answer 200. XML, or JSON with `format=JSON`; always HTTP 200.";

/** CAS Protocol 3.0's validation endpoints and /proxy. */
export const casValidationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    casPaths.validate,
    {
      schema: {
        tags,
        summary: "CAS 1.0 /validate",
        description: `${validationNote} Answers \`yes\\n{user}\\n\` or \`no\\n\\n\`; service tickets only.`,
        querystring: validationQuery,
      },
    },
    async (request, reply) => {
      const answer = await validateTicket(request, request.query, { proxyTickets: false, proxyCallback: false }, false);
      return sendCas1(reply, answer.kind === "success" ? answer.user : undefined);
    },
  );

  const validation = (path: string, summary: string, proxyTickets: boolean) =>
    app.get(
      path,
      {
        schema: {
          tags,
          summary,
          description:
            `${validationNote} ${proxyTickets ? "Service and proxy tickets; a proxy ticket's chain in `cas:proxies`." : "Service tickets only."} ` +
            "The person's attributes the service is released (docs/cas.md) in `cas:attributes`.",
          querystring: validationQuery,
        },
      },
      async (request, reply) => {
        const answer = await validateTicket(request, request.query, { proxyTickets, proxyCallback: true }, true);
        return sendValidation(reply, answer, isJson(request.query.format));
      },
    );
  validation(casPaths.serviceValidate, "CAS /serviceValidate", false);
  validation(casPaths.p3ServiceValidate, "CAS 3.0 /p3/serviceValidate", false);
  validation(casPaths.proxyValidate, "CAS /proxyValidate", true);
  validation(casPaths.p3ProxyValidate, "CAS 3.0 /p3/proxyValidate", true);

  // SOAP from a server: no cookie is read, so no cross-site request can do anything with it.
  app.addContentTypeParser(
    ["text/xml", "application/xml", "application/soap+xml"],
    { parseAs: "string", bodyLimit: samlBodyLimit },
    (_request, body, done) => done(null, typeof body === "string" ? body : body.toString("utf8")),
  );
  app.post(
    casPaths.samlValidate,
    {
      config: { csrf: false },
      bodyLimit: samlBodyLimit,
      schema: {
        tags,
        summary: "CAS SAML 1.1 /samlValidate",
        description:
          "Server to server, validated as /serviceValidate validates (service tickets only, once, for the exact " +
          "service, `renew=true`; no proxy callback). Apereo CAS's SAML 1.1 validation, as phpCAS (SAML_VERSION_1_1) and Moodle's \"SAML 1.1\" send it: " +
          "`TARGET` is the service, the body a SOAP envelope whose samlp:Request carries the service ticket as " +
          "its AssertionArtifact (text/xml). Answers a SOAP envelope with a SAML 1.1 saml1p:Response: Success with " +
          "an assertion (NameIdentifier: the username; the service's attributes), or Requester/Responder with the " +
          "CAS failure code in StatusMessage. Always HTTP 200.",
        querystring: samlQuery,
      },
    },
    async (request, reply) => sendSamlValidation(request, reply, request.query),
  );

  app.get(
    casPaths.proxy,
    {
      schema: {
        tags,
        summary: "CAS /proxy",
        description:
          "A proxy ticket for `targetService` (a registered CAS service the person may use now) from a live " +
          "proxy-granting ticket `pgt`: `cas:proxySuccess`, or `cas:proxyFailure` INVALID_REQUEST, INVALID_TICKET, " +
          "UNAUTHORIZED_SERVICE. XML, or JSON with `format=JSON`.",
        querystring: proxyQuery,
      },
    },
    async (request, reply) => {
      const { pgt, targetService, format } = request.query;
      return sendProxyAnswer(reply, await proxyTicket(request, pgt, targetService), isJson(format));
    },
  );
};
