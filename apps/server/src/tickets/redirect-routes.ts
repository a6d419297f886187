import { text } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasApplicationAccess } from "../access/applications.ts";
import { findApplicationById } from "../apps/queries.ts";
import { audit } from "../audit/record.ts";
import type { ApplicationRow } from "../db/schema.ts";
import { requestLanguage } from "../http/language.ts";
import { canStepUp } from "../mfa/decision.ts";
import { currentSession } from "../sessions/current.ts";
import type { LoadedSession } from "../sessions/store.ts";
import { isMultiFactor, sessionAmr } from "../sessions/strength.ts";
import { issueTicket } from "./store.ts";

// Longer than any application id; a longer value is not kept in the page address.
const keptAppIdLength = 128;

const appRedirectQuery = z.object({
  // A repeated or odd parameter is treated as missing: this is a browser navigation, it gets a page, not JSON.
  appId: text().optional().catch(undefined),
});

/** A same-site page address carrying the appId, percent-encoded so no value can reach a header unescaped. */
export function pagePath(language: string, page: "" | "apps", appId: string | undefined): string {
  const base = `/${language}/${page}`;
  return appId && appId.length <= keptAppIdLength ? `${base}?appId=${encodeURIComponent(appId)}` : base;
}

/** The registered callback with ticketId added, keeping whatever query the callback has. */
export function callbackWithTicket(callbackUrl: string, ticket: string): string {
  const separator = !callbackUrl.includes("?") ? "?" : /[?&]$/.test(callbackUrl) ? "" : "&";
  return `${callbackUrl}${separator}ticketId=${encodeURIComponent(ticket)}`;
}

/**
 * An application that requires MFA and a one-factor session: sign in again (with the second factor
 * or Diia) and come back here. A person with neither is led to the account page to set a second
 * factor up instead of going round.
 */
async function stepUpPath(request: FastifyRequest, session: LoadedSession, language: string, appId: string) {
  if (!(await canStepUp(request, session.user))) return `/${language}/account#second-factor`;
  return `${pagePath(language, "", appId)}&reauth=1&mfa=1`;
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
          "`ticketId`. Not signed in: 302 to the sign-in page keeping appId. Unknown application or no " +
          "access: 302 to /{lang}/apps?appId=… where the page explains.",
        querystring: appRedirectQuery,
      },
    },
    async (request, reply) => {
      const { appId } = request.query;
      const language = requestLanguage(request);
      const session = await currentSession(request, reply);
      if (!session) {
        await audit(request, { type: "app_redirect", result: "failure", reason: "auth.not_authenticated" });
        return reply.redirect(pagePath(language, "", appId), 302);
      }
      const application: ApplicationRow | undefined = appId ? await findApplicationById(app.db, appId) : undefined;
      const allowed = application ? await hasApplicationAccess(app.db, session.userId, application.id) : false;
      if (!application || !allowed) {
        await audit(request, {
          type: "app_redirect",
          result: "failure",
          userId: session.userId,
          applicationId: application?.id,
          reason: application ? "app.access_denied" : "app.not_found",
        });
        return reply.redirect(pagePath(language, "apps", appId), 302);
      }
      if (application.require_mfa && !isMultiFactor(session)) {
        await audit(request, {
          type: "app_redirect",
          result: "failure",
          userId: session.userId,
          applicationId: application.id,
          reason: "auth.step_up_required",
        });
        return reply.redirect(await stepUpPath(request, session, language, application.id), 302);
      }
      const ticket = await issueTicket(
        app.db,
        {
          applicationId: application.id,
          userId: session.userId,
          authMethod: session.authMethod,
          amr: sessionAmr(session),
        },
        app.config.ticketTtlSeconds,
        app.clock(),
      );
      await audit(request, {
        type: "app_redirect",
        result: "success",
        authMethod: session.authMethod,
        userId: session.userId,
        applicationId: application.id,
      });
      return reply.redirect(callbackWithTicket(application.callback_url, ticket), 302);
    },
  );
};
