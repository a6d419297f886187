import {
  consentAnswerSchema,
  consentOutcomeSchema,
  errorBodySchema,
  ticketConsentDetailsSchema,
  ticketConsentParamsSchema,
  ticketConsentPath,
} from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { recordConsent } from "../../model/access/consents.ts";
import { ticketDataOf } from "../../model/access/ticket-consents.ts";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { localizedTexts } from "../../model/apps/localized.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { publisherOf } from "../../model/developers/publisher.ts";
import { appRedirectPath } from "../../model/sessions/continue-to.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import {
  findConsentRequest,
  type TicketConsentRequest,
  takeConsentRequest,
} from "../../model/tickets/consent-requests.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { passGate, ticketConsentMissing } from "../../sign-in/gate/gate.ts";
import { requireSession } from "../../sign-in/session/current.ts";
import { chosenCallback } from "./callbacks.ts";
import { ticketRedirect } from "./ticket-redirect.ts";

const tags = ["applications"];

/** The waiting request's application; a request whose application is gone is as unknown as a made-up id. */
async function applicationOf(request: FastifyRequest, waiting: TicketConsentRequest | undefined) {
  const { applicationCache, db } = request.server;
  const application = waiting ? await cachedApplicationById(applicationCache, db, waiting.applicationId) : undefined;
  if (!waiting || !application) throw new AppError("consent.request_not_found");
  return { waiting, application };
}

/**
 * Where an agreed request goes: straight to the callback with a ticket when everything still holds (access,
 * the same registered callback, a strong enough sign-in); else through the app redirect, which says why or
 * asks for the second factor first, and then, the consent being recorded, issues the ticket.
 */
async function afterAgreeing(
  request: FastifyRequest,
  session: LoadedSession,
  waiting: TicketConsentRequest,
  application: Awaited<ReturnType<typeof applicationOf>>["application"],
): Promise<string> {
  const { db, clock } = request.server;
  const link = { appId: application.id, state: waiting.state, redirectUri: waiting.redirectUri };
  if (!(await hasApplicationAccess(db, session.userId, application.id)))
    return waiting.continuePath ?? appRedirectPath(link);
  // The person agreed to what the screen named; when the application now receives something else (operators
  // changed it meanwhile), nothing is recorded and the app redirect asks again with what it receives now.
  const received = ticketDataOf(application);
  if (received.length !== waiting.data.length || received.some((datum) => !waiting.data.includes(datum))) {
    return waiting.continuePath ?? appRedirectPath(link);
  }
  const to = { protocol: "ticket", applicationId: application.id } as const;
  await recordConsent(db, session.userId, to, ticketDataOf(application), { now: clock() });
  // A CAS login goes back to its own continuation, which decides again (access, step-up) and issues its ticket.
  if (waiting.continuePath) return waiting.continuePath;
  const callback = chosenCallback(application, waiting.redirectUri);
  if (callback !== waiting.callbackUrl) return appRedirectPath(link);
  // The gate again, the consent now recorded: anything else it asks (a second factor) the app redirect asks for.
  const decision = await passGate(request, {
    session,
    application,
    needsConsent: ticketConsentMissing(request, application),
  });
  if (decision.kind !== "issue") return appRedirectPath(link);
  return ticketRedirect(request, decision.session, application, { callback, state: waiting.state, consent: "given" });
}

/** The consent screen of the ticket path (issue 56): what a community application would receive, and the answer. */
export const ticketConsentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ticketConsentPath}/:id`,
    {
      schema: {
        tags,
        summary: "What an application asks for before a ticket (the consent screen)",
        description:
          "The person's own waiting request only (else 404 `consent.request_not_found`, as for an expired one): " +
          "the application's title and description in the person's language, the kinds of data its ticket " +
          "carries, whether operators reviewed it, and its home page, privacy policy and owners' contacts.",
        params: ticketConsentParamsSchema,
        response: { 200: ticketConsentDetailsSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const found = await findConsentRequest(app.db, request.params.id, session.userId, app.clock());
      const { waiting, application } = await applicationOf(request, found);
      return {
        application: localizedTexts(application, requestLanguage(request)),
        // What the request was made with: the answer is checked against it (afterAgreeing).
        data: waiting.data,
        person: { name: session.user.full_name },
        reviewed: application.lifecycle === "live",
        publisher: await publisherOf(app.db, application),
      };
    },
  );

  app.post(
    `${ticketConsentPath}/:id`,
    {
      schema: {
        tags,
        summary: "Allow or refuse an application's ticket",
        description:
          "JSON from this site's pages only (Origin checked). Answers where the browser goes: allowed, the " +
          "consent is remembered and the browser goes to the callback the link named, with `ticketId` and the " +
          "link's `state` (both kept on the server since the app redirect); refused, back to the apps page, " +
          "audited and noted in the application's integration health. Each request is answered once.",
        params: ticketConsentParamsSchema,
        body: consentAnswerSchema,
        response: { 200: consentOutcomeSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const taken = await takeConsentRequest(app.db, request.params.id, session.userId, app.clock());
      const { waiting, application } = await applicationOf(request, taken);
      if (request.body.allow) return { redirectTo: await afterAgreeing(request, session, waiting, application) };
      await audit(request, {
        type: "app_redirect",
        result: "failure",
        userId: session.userId,
        applicationId: application.id,
        reason: "consent.declined",
      });
      await recordIntegrationFailure(app.db, application.id, "ticket", "consent_declined");
      return { redirectTo: `/${requestLanguage(request)}/apps` };
    },
  );
};
