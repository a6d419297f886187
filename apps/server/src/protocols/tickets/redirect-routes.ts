import {
  appLinkRefusal,
  appRedirectUriMaxLength,
  appStateMaxLength,
  text,
  ticketConsentParam,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ticketDataOf } from "../../model/access/ticket-consents.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { secondFactorSetUpPath } from "../../model/sessions/continue-to.ts";
import { saveConsentRequest } from "../../model/tickets/consent-requests.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { noteGateRefusal, passGate, ticketConsentMissing } from "../../sign-in/gate/gate.ts";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";
import { currentSession } from "../../sign-in/session/current.ts";
import { chosenCallback } from "./callbacks.ts";
import { ticketRedirect } from "./ticket-redirect.ts";

// Longer than any application id; a longer value is not kept in the page address.
const keptAppIdLength = 128;

const appRedirectQuery = z.object({
  // A repeated or odd parameter is treated as missing: this is a browser navigation, it gets a page, not JSON.
  appId: text().optional().catch(undefined),
  // The application's own value, returned unchanged to its callback; a longer one is not carried.
  state: text().max(appStateMaxLength).optional().catch(undefined),
  // One of the application's registered callbacks, matched exactly; without it the first is used.
  redirectUri: text().max(appRedirectUriMaxLength).optional().catch(undefined),
});
type AppRedirectQuery = z.infer<typeof appRedirectQuery>;

/** A same-site page address carrying the sign-in link's parameters, percent-encoded so none reaches a header raw. */
export function pagePath(language: string, page: "" | "apps", { appId, state, redirectUri }: AppRedirectQuery): string {
  const base = `/${language}/${page}`;
  if (!appId || appId.length > keptAppIdLength) return base;
  const kept = new URLSearchParams({ appId });
  if (state !== undefined) kept.set("state", state);
  if (redirectUri !== undefined) kept.set("redirectUri", redirectUri);
  return `${base}?${kept}`;
}

/** Opening a connected application: a one-time ticket and a redirect to its registered callback. */
export const appRedirectRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/app-redirect",
    {
      schema: {
        tags: ["applications"],
        summary: "Open a connected application",
        description:
          "A browser navigation. Signed in with access: 302 to the application's registered callback with " +
          "`ticketId` (and `state`, unchanged, when given). `redirectUri` names one of the application's " +
          "registered callbacks exactly (the first is used without it); an unregistered one is refused. " +
          "Not signed in: 302 to the sign-in page keeping appId, state and redirectUri. Unknown application, " +
          "no access: 302 to /{lang}/apps?appId=… where the page explains; an unregistered redirectUri adds " +
          "`&refused=redirectUri`. An application registered on the developers' page that the person has not " +
          "allowed yet (or that now receives more than they allowed): 302 to `/{lang}/consent?ticket={id}`, the " +
          "link kept on the server until they answer there (`/api/app-consent/{id}`); the ticket comes after.",
        querystring: appRedirectQuery,
      },
    },
    async (request, reply) => {
      const { appId, state, redirectUri } = request.query;
      const language = requestLanguage(request);
      const session = await currentSession(request, reply);
      if (!session) {
        await audit(request, { type: "app_redirect", result: "failure", reason: "auth.not_authenticated" });
        return reply.redirect(pagePath(language, "", request.query), 302);
      }
      const application: ApplicationRow | undefined = appId
        ? await cachedApplicationById(app.applicationCache, app.db, appId)
        : undefined;
      if (!application) {
        await audit(request, {
          type: "app_redirect",
          result: "failure",
          userId: session.userId,
          reason: "app.not_found",
        });
        return reply.redirect(pagePath(language, "apps", { appId }), 302);
      }
      const decision = await passGate(request, {
        session,
        application,
        needsConsent: ticketConsentMissing(request, application),
      });
      const refused = { type: "app_redirect", protocol: "ticket", session, application } as const;
      const link = { appId: application.id, state, redirectUri };
      // No access: the apps page says so (only its owners and testers may sign in to one in testing).
      if (decision.kind === "no_access" || decision.kind === "testing_only") {
        await noteGateRefusal(request, decision, refused);
        const page = pagePath(language, "apps", { appId: application.id });
        if (decision.kind === "no_access") return reply.redirect(page, 302);
        return reply.redirect(
          `${page}&${new URLSearchParams({ [appLinkRefusal.param]: appLinkRefusal.testing })}`,
          302,
        );
      }
      // The application is on the person's list: the page is also told why (else it would send the browser straight
      // back here), with the address tried, so it can say which one is unknown (issue 60).
      const callback = chosenCallback(application, redirectUri);
      if (!callback) {
        await recordIntegrationFailure(app.db, application.id, "ticket", "redirect_uri_not_registered", redirectUri);
        await audit(request, {
          type: "app_redirect",
          result: "failure",
          userId: session.userId,
          applicationId: application.id,
          reason: "app.redirect_uri_not_registered",
        });
        const refusedUri = new URLSearchParams({ [appLinkRefusal.param]: appLinkRefusal.redirectUri });
        return reply.redirect(`${pagePath(language, "apps", link)}&${refusedUri}`, 302);
      }
      if (decision.kind === "step_up" || decision.kind === "set_up_second_factor") {
        await noteGateRefusal(request, decision, refused);
        if (decision.kind === "step_up") return reply.redirect(`${pagePath(language, "", link)}&reauth=1&mfa=1`, 302);
        // Nothing to prove more with: the set-up first, the link waiting in the continue cookie, so confirming the
        // authenticator goes on to the application (with its state and callback) rather than the apps list.
        rememberContinueTo(reply, { kind: "application", ...link });
        return reply.redirect(secondFactorSetUpPath(language), 302);
      }
      // A community application learns who the person is only after they agree (issue 56): the link waits on the
      // server and the consent screen answers it; first-party applications go on at once, as they always did.
      if (decision.kind === "consent") {
        const waiting = { userId: session.userId, applicationId: application.id, state, redirectUri };
        const shown = { callbackUrl: callback, data: ticketDataOf(application) };
        const id = await saveConsentRequest(app.db, { ...waiting, ...shown }, app.clock());
        // No ticket yet, as for a step-up: the answer on the consent screen writes the outcome.
        await noteGateRefusal(request, decision, refused);
        const screen = new URLSearchParams({ [ticketConsentParam]: id });
        return reply.redirect(`/${language}/consent?${screen}`, 302);
      }
      // A session that may no longer sign in (its person disabled a moment ago): the sign-in page, as without one.
      if (decision.kind !== "issue") return reply.redirect(pagePath(language, "", request.query), 302);
      return reply.redirect(await ticketRedirect(request, decision.session, application, { callback, state }), 302);
    },
  );
};
