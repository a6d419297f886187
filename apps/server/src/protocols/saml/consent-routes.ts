import {
  consentAnswerSchema,
  consentOutcomeSchema,
  samlConsentDetailsSchema,
  samlConsentPath,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { recordConsent } from "../../model/access/consents.ts";
import { declinePendingRequest, findPendingRequest } from "../../model/saml/pending-requests.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { AppError } from "../../platform/errors.ts";
import { requireSession } from "../../sign-in/session/current.ts";
import { releasedAttributeNames } from "./attributes.ts";
import { continuePathOf, pendingIdParams } from "./sso-routes.ts";

/**
 * The consent screen's side of a SAML sign-in (an SP that is not first-party):
 * what the SP would receive, and the person's answer. The answer sends the browser
 * back to /saml/continue/{id}, which posts the assertion (or RequestDenied) to the SP.
 */
export const consentRoutes: FastifyPluginAsyncZod = async (app) => {
  const pendingOf = async (id: string) => {
    const pending = await findPendingRequest(app.db, id, app.clock());
    const sp = pending && (await findServiceProvider(app.db, pending.sp_entity_id, app.clock()));
    if (!pending || !sp) throw new AppError("saml.request_not_found");
    return { pending, sp };
  };

  app.get(
    `${samlConsentPath}/:id`,
    {
      schema: {
        tags: ["saml"],
        summary: "What a SAML service provider would receive (the consent screen)",
        params: pendingIdParams,
        response: { 200: samlConsentDetailsSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { sp } = await pendingOf(request.params.id);
      return {
        application: { title: sp.display_name, description: sp.entity_id },
        attributes: releasedAttributeNames(sp),
        person: { name: session.user.full_name },
      };
    },
  );

  app.post(
    `${samlConsentPath}/:id`,
    {
      schema: {
        tags: ["saml"],
        summary: "Allow or deny a SAML service provider's request",
        description: "Answers where the browser goes next: /saml/continue/{id}, which answers the SP.",
        params: pendingIdParams,
        body: consentAnswerSchema,
        response: { 200: consentOutcomeSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { pending, sp } = await pendingOf(request.params.id);
      if (request.body.allow)
        await recordConsent(
          app.db,
          session.userId,
          { protocol: "saml", spEntityId: sp.entity_id },
          releasedAttributeNames(sp),
          { now: app.clock() },
        );
      else await declinePendingRequest(app.db, pending.id);
      return { redirectTo: continuePathOf(pending.id) };
    },
  );
};
