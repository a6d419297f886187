import { errorBodySchema, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { deleteSessionByToken } from "../../model/sessions/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { clearSessionCookie, readSessionCookie } from "../../platform/http/session-cookie.ts";
import { endCasSessionInBrowser } from "../../protocols/cas/single-logout.ts";
import { endOidcSession } from "../../protocols/oidc/logout.ts";
import { frontChannelSignOutPath } from "../../protocols/saml/front-channel.ts";
import { currentSession } from "../../sign-in/session/current.ts";

const okSchema = z.object({ ok: z.literal(true) });
/** next: where the browser goes to sign out of the SAML SPs of the session (front-channel Single Logout). */
const logoutSchema = okSchema.extend({ next: text().optional() });

/** Ends this browser's (or server-side client's) session, OpenID Connect's with it, and clears the cookie. */
async function logOut(request: FastifyRequest, reply: FastifyReply, inBrowser = false) {
  const token = readSessionCookie(request);
  // The CAS services that asked for single logout are told first, while the session still names their sign-ins.
  await endCasSessionInBrowser(request, reply);
  await endOidcSession(request, reply);
  // In the browser, the SAML SPs this session signed in to are told through it (front-channel), so it goes there next.
  const session = inBrowser && token ? await currentSession(request, reply) : undefined;
  const next = session ? await frontChannelSignOutPath(request, session.id) : undefined;
  const ended = token ? await deleteSessionByToken(request.server.db, token) : undefined;
  clearSessionCookie(reply);
  if (ended) await audit(request, { type: "logout", result: "success", userId: ended.user_id });
  return next ? { ok: true as const, next } : { ok: true as const };
}

/**
 * GET sign-out is for existing integrations' servers. A browser tells where the request came from
 * (Sec-Fetch-Site): typed or from KPI ID's own pages it may sign out; from another site (a link or an
 * image on any page) it may not, or any site could sign people out.
 */
const crossSiteFetches = new Set(["cross-site", "same-site"]);

/**
 * Signing out of this browser: KPI ID's session, the OpenID Connect provider's session of the browser (its
 * applications get back-channel logout) and the SAML SPs through the browser (front-channel). A surface, so it
 * asks the protocols directly; signing a person out everywhere is the model's event instead (sign-out-events.ts).
 */
export const signOutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/auth/logout",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Sign out",
        description: "Deletes the session and clears its cookie. Succeeds also without a session.",
        response: { 200: logoutSchema },
      },
    },
    async (request, reply) => logOut(request, reply, true),
  );

  app.get(
    "/api/auth/logout",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Sign out (existing integrations' servers)",
        description:
          "The same as POST, for servers that hold the KPI ID cookie (the server-side Diia flow). A browser " +
          "request from another site (`Sec-Fetch-Site: cross-site` or `same-site`) is refused with 403 " +
          "`request.csrf_rejected` and signs nobody out; requests without Sec-Fetch-Site (servers) and " +
          "KPI ID's own pages are answered.",
        response: { 200: okSchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const site = request.headers["sec-fetch-site"];
      if (typeof site === "string" && crossSiteFetches.has(site)) {
        await audit(request, { type: "logout", result: "failure", reason: "request.csrf_rejected" });
        throw new AppError("request.csrf_rejected");
      }
      return logOut(request, reply);
    },
  );
};
