import formbody from "@fastify/formbody";
import {
  INSTITUTION_ERROR_PARAM,
  institutionStartRequestSchema,
  institutionStartResponseSchema,
  institutionsResponseSchema,
  institutionWelcomeSchema,
  text,
} from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { searchInstitutions } from "../../../model/saml/identity-providers.ts";
import { AppError } from "../../../platform/errors.ts";
import { requestLanguage } from "../../../platform/http/language.ts";
import { isNavigation } from "../../../platform/http/navigation.ts";
import { visitorPaths } from "./paths.ts";
import { institutionPolicy } from "./policy.ts";
import { throttledAnswer } from "./throttle.ts";

// service.ts reads and writes SAML with samlify and xmldom: loaded on the first visitor's request, not at start-up
// (issue 41), as the identity provider's side is.
const service = () => import("./service.ts");

const requestIdSchema = text().min(1).max(128);

/**
 * A refused browser step lands on the discovery screen, which says why in the person's language. The home
 * institution's page posts its answer cross-site, which carries no SameSite=Lax cookie, the remembered language
 * (i18next) among them: a refused answer goes to /institution, and the app adds the language this browser chose.
 */
function backToDiscovery(request: FastifyRequest, reply: FastifyReply, error: unknown, crossSite = false) {
  if (!(error instanceof AppError) || !isNavigation(request)) throw error;
  const query = new URLSearchParams({ [INSTITUTION_ERROR_PARAM]: error.code });
  const page = crossSite ? "/institution" : `/${requestLanguage(request)}/institution`;
  return reply.header("cache-control", "no-store").redirect(`${page}?${query}`, 303);
}

/** Researchers of other universities sign in at home (issue 78, docs/visitors.md): KPI ID as a SAML SP. */
export const visitorRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(formbody, { bodyLimit: 1024 * 1024 });

  app.get(
    visitorPaths.metadata,
    { schema: { tags: ["saml"], summary: "KPI ID's service-provider metadata (for federations' aggregates)" } },
    async (_request, reply) =>
      reply.type("application/samlmetadata+xml").send(await (await import("./sp-metadata.ts")).visitorMetadata(app)),
  );

  app.get(
    visitorPaths.institutions,
    {
      schema: {
        tags: ["sign-in"],
        summary: "Institutions whose people may sign in as visitors",
        description: "Searches the allowed identity providers by name in either language or by domain (at most 20).",
        querystring: z.object({ q: text().max(100).default("") }),
        response: { 200: institutionsResponseSchema },
      },
    },
    async (request) => {
      const rows = await searchInstitutions(app.db, institutionPolicy(app), {
        words: request.query.q.trim(),
        limit: 20,
        now: app.clock(),
      });
      return {
        institutions: rows.map((row) => ({
          entityId: row.entity_id,
          en: row.display_name_en,
          uk: row.display_name_uk,
          domains: row.scopes,
        })),
      };
    },
  );

  app.post(
    visitorPaths.start,
    {
      schema: {
        tags: ["sign-in"],
        summary: "Start signing in (or linking) at a home institution",
        description:
          "Answers the address of the institution's single sign-on with a signed AuthnRequest; binds the sign-in " +
          "to this browser with a cookie. 403 `institution.not_allowed` for an institution visitors may not come from.",
        body: institutionStartRequestSchema,
        response: { 200: institutionStartResponseSchema },
      },
    },
    async (request, reply) => ({ redirect: await (await service()).startAtInstitution(request, reply, request.body) }),
  );

  app.post(
    visitorPaths.acs,
    {
      schema: {
        tags: ["saml"],
        summary: "Assertion consumer service (HTTP-POST) for home institutions' answers",
        body: z.object({
          SAMLResponse: text()
            .min(1)
            .max(1024 * 1024),
          RelayState: text().max(1024).optional(),
        }),
      },
      // A home institution's page posts here cross-site: no Origin check (SAML's own signature is the check).
      config: { csrf: false },
    },
    async (request, reply) => {
      try {
        const { receiveAnswer } = await service();
        const requestId = await throttledAnswer(request, () => receiveAnswer(request, request.body.SAMLResponse));
        const query = new URLSearchParams({ request: requestId });
        return reply.header("cache-control", "no-store").redirect(`${visitorPaths.finish}?${query}`, 303);
      } catch (error) {
        return backToDiscovery(request, reply, error, true);
      }
    },
  );

  app.get(
    visitorPaths.finish,
    {
      schema: {
        tags: ["sign-in"],
        summary: "Finish a sign-in at a home institution in the browser that started it",
        querystring: z.object({ request: requestIdSchema }),
      },
    },
    async (request, reply) => {
      try {
        const next = await (await service()).finishAtInstitution(request, reply, request.query.request);
        return reply.header("cache-control", "no-store").redirect(next, 303);
      } catch (error) {
        return backToDiscovery(request, reply, error);
      }
    },
  );

  app.get(
    visitorPaths.welcome,
    {
      schema: {
        tags: ["sign-in"],
        summary: "What a first sign-in from a home institution would keep, for the person to agree to",
        querystring: z.object({ request: requestIdSchema }),
        response: { 200: institutionWelcomeSchema },
      },
    },
    async (request) => (await service()).describeWelcome(request, request.query.request),
  );

  app.post(
    visitorPaths.accept,
    {
      schema: {
        tags: ["sign-in"],
        summary: "Agree: make the visitor account and sign in",
        body: z.object({ request: requestIdSchema }),
        response: { 200: z.object({ ok: z.literal(true), next: text() }) },
      },
    },
    async (request, reply) => ({
      ok: true as const,
      next: await (await service()).acceptVisitor(request, reply, request.body.request),
    }),
  );
};
