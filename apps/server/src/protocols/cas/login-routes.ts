import { appLinkRefusal, casPaths, text, ticketConsentParam } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ticketDataOf } from "../../model/access/ticket-consents.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { findPendingLogin, type PendingCasLogin, savePendingLogin, takePendingLogin } from "../../model/cas/logins.ts";
import { findCasService } from "../../model/cas/services.ts";
import { secondFactorSetUpPath, stepUpSignInPath } from "../../model/sessions/continue-to.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { lastAuthenticatedAt } from "../../model/sessions/strength.ts";
import { saveConsentRequest } from "../../model/tickets/consent-requests.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { showRefusalsAsPage } from "../../platform/http/browser-errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { type GateOutcome, noteGateRefusal, passGate, ticketConsentMissing } from "../../sign-in/gate/gate.ts";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";
import { currentSession } from "../../sign-in/session/current.ts";
import { sendServiceTicket } from "./issue.ts";
import { casSignOutPage } from "./logout.ts";

// Odd or repeated values are treated as missing: these are browser navigations.
const field = (max: number) => text().max(max).optional().catch(undefined);
const loginQuery = z.object({ service: field(4096), renew: field(8), gateway: field(8), method: field(8) });
const isTrue = (value: string | undefined) => value === "true" || value === "1";

const tags = ["cas"];
const continuePathOf = (id: string) => `${casPaths.continue}/${encodeURIComponent(id)}`;

/**
 * Where the gate's refusal sends the browser, the login waiting on the server meanwhile: the sign-in screen (again),
 * the step-up or the second factor's set-up (each coming back to the login's continuation), the apps page that
 * explains no access (in testing with its own words), or the consent screen.
 */
async function pathFor(
  request: FastifyRequest,
  reply: FastifyReply,
  decision: Exclude<GateOutcome, { kind: "issue" }>,
  context: { session: LoadedSession | null; application: ApplicationRow; pending: PendingCasLogin },
): Promise<string> {
  const language = requestLanguage(request);
  const { session, application, pending } = context;
  if (session) await noteGateRefusal(request, decision, { ...context, session, ...casRefusal });
  switch (decision.kind) {
    case "no_access":
    case "testing_only": {
      const page = new URLSearchParams({ appId: application.id });
      if (decision.kind === "testing_only") page.set(appLinkRefusal.param, appLinkRefusal.testing);
      return `/${language}/apps?${page}`;
    }
    case "consent":
      return session ? consentPath(request, session, application, pending) : `/${language}/`;
    default:
      rememberContinueTo(reply, {
        kind: "protocol",
        protocol: "cas",
        waiting: pending.id,
        path: continuePathOf(pending.id),
      });
      // A signed-in person asked to prove who they are again sees the sign-in screen anyway (reauth=1).
      if (decision.kind === "sign_in_again") return `/${language}/?reauth=1`;
      if (decision.kind === "step_up") return stepUpSignInPath(language);
      if (decision.kind === "set_up_second_factor") return secondFactorSetUpPath(language);
      return `/${language}/`;
  }
}

const casRefusal = { type: "app_redirect", protocol: "cas", details: { via: "cas" } } as const;

/** The consent screen, the login waiting on the server; "allow" comes back to the login's continuation. */
async function consentPath(
  request: FastifyRequest,
  session: LoadedSession,
  application: ApplicationRow,
  pending: PendingCasLogin,
) {
  const { db, clock } = request.server;
  const id = await saveConsentRequest(
    db,
    {
      userId: session.userId,
      applicationId: application.id,
      state: undefined,
      redirectUri: undefined,
      callbackUrl: pending.service,
      data: ticketDataOf(application),
      continuePath: continuePathOf(pending.id),
    },
    clock(),
  );
  return `/${requestLanguage(request)}/consent?${new URLSearchParams({ [ticketConsentParam]: id })}`;
}

/** CAS Protocol 3.0 §2.1 (/login) and its continuation after the sign-in, the step-up or the consent screen. */
export const casLoginRoutes: FastifyPluginAsyncZod = async (app) => {
  showRefusalsAsPage(app);

  app.get(
    casPaths.login,
    {
      schema: {
        tags,
        summary: "CAS /login",
        description:
          "A browser navigation (CAS Protocol 3.0 §2.1). `service` must be a registered CAS service (else a page " +
          "says so, `cas.service_not_registered`); the login continues at /cas/continue/{id} (sign-in, access, " +
          "step-up, consent) and ends at the service with `ticket` (a redirect, or a form POST with " +
          "`method=POST`). `renew=true`: the person signs in again even with a session. `gateway=true` (without " +
          "renew): never asks the person anything; back to the service with a ticket when a session allows it, " +
          "else without one. No `service`: the apps page (signed in) or the sign-in page.",
        querystring: loginQuery,
      },
    },
    async (request, reply) => {
      const { service, method } = request.query;
      const language = requestLanguage(request);
      reply.header("cache-control", "no-store");
      if (!service) {
        const session = await currentSession(request, reply);
        return reply.redirect(session ? `/${language}/apps` : `/${language}/`, 302);
      }
      const registered = await findCasService(app.db, service);
      const application =
        registered && (await cachedApplicationById(app.applicationCache, app.db, registered.applicationId));
      if (!application) {
        await audit(request, { type: "app_redirect", result: "failure", reason: "cas.service_not_registered" });
        throw new AppError("cas.service_not_registered");
      }
      const renew = isTrue(request.query.renew);
      const post = method?.toUpperCase() === "POST";
      // gateway (§2.1.1): nothing may be asked of the person; renew, when both are given, wins (as the spec advises).
      if (isTrue(request.query.gateway) && !renew) {
        const session = await currentSession(request, reply);
        const needsConsent = ticketConsentMissing(request, application);
        const decision = await passGate(request, { session, application, needsConsent });
        if (decision.kind !== "issue") return reply.redirect(service, 302);
        const { session: signedIn } = decision;
        return sendServiceTicket(request, reply, {
          session: signedIn,
          application,
          service,
          post,
          fromNewLogin: false,
        });
      }
      const id = await savePendingLogin(app.db, { applicationId: application.id, service, renew, post }, app.clock());
      return reply.redirect(continuePathOf(id), 303);
    },
  );

  app.get(
    `${casPaths.continue}/:id`,
    {
      schema: {
        tags,
        summary: "Continue a CAS login",
        description:
          "Without a session (or, with `renew`, without a sign-in made after the login began) goes to the sign-in " +
          "screen, which returns here; no access: the apps page explains; an application that requires a second " +
          "factor and a one-factor session: the step-up, back here; an application that is not first-party and " +
          "no consent yet: the consent screen, back here; else the service ticket. 404 `cas.request_not_found`.",
        params: z.object({ id: text().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
      },
    },
    async (request, reply) => {
      const { db, clock } = app;
      reply.header("cache-control", "no-store");
      const pending = await findPendingLogin(db, request.params.id, clock());
      const application = pending && (await cachedApplicationById(app.applicationCache, db, pending.applicationId));
      if (!pending || !application) throw new AppError("cas.request_not_found");
      const session = await currentSession(request, reply);
      const decision = await passGate(request, {
        session,
        application,
        // renew: only a sign-in made after the login began will do.
        asks: { signedInSince: pending.renew ? new Date(pending.createdAt.getTime() + 1) : undefined },
        needsConsent: ticketConsentMissing(request, application),
      });
      if (decision.kind !== "issue") {
        return reply.redirect(await pathFor(request, reply, decision, { session, application, pending }), 303);
      }
      const signedIn = decision.session;
      const fromNewLogin = lastAuthenticatedAt(signedIn).getTime() > pending.createdAt.getTime();
      if (!(await takePendingLogin(db, pending.id))) throw new AppError("cas.request_not_found");
      const { service, post } = pending;
      return sendServiceTicket(request, reply, { session: signedIn, application, service, post, fromNewLogin });
    },
  );

  app.get(
    casPaths.logout,
    {
      schema: {
        tags,
        summary: "CAS /logout",
        description:
          "Ends this browser's KPI ID session, and with it its protocols' sessions (CAS single logout to the " +
          "services that asked for it, OpenID Connect's back-channel logout). `service` (or `url`, CAS 2.0's name) " +
          "that is a registered CAS service: 302 there; any other address is ignored (no open redirect): the " +
          "sign-in page.",
        querystring: z.object({ service: field(4096), url: field(4096) }),
      },
    },
    async (request, reply) => casSignOutPage(request, reply, request.query.service ?? request.query.url),
  );
};
