import { errorBodySchema, forwardAuthPaths, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { endSiteSession, siteVisitor, startSiteSession } from "../../model/forward-auth/store.ts";
import { appRedirectPath } from "../../model/sessions/continue-to.ts";
import { redeemSiteTicket } from "../../model/tickets/site-tickets.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { visitorHeaders } from "./headers.ts";
import { cameThroughSite, originalUrl, type ProtectedSite, protectedSite, returnAddress } from "./site.ts";
import { bindSignIn, forgetSignInBinding, signInBoundHere } from "./start-binding.ts";

// Odd or repeated values are treated as missing: these are browser navigations and nginx subrequests.
const field = text().max(1024).optional().catch(undefined);

const tags = ["forward-auth"];
const headersNote =
  "nginx sets `X-KPI-ID-Application` (the application id) and `X-Original-URL` ($scheme://$http_host$request_uri); " +
  "see docs/nginx-auth-request.md.";

function siteCookieOptions(site: ProtectedSite) {
  return { path: "/", httpOnly: true, secure: site.secure, sameSite: "lax" } as const;
}

/**
 * A sign-out the host's own page asked for. The host's cookie is SameSite=Lax, which top-level GETs from any site
 * carry, so a link elsewhere could sign people out: the browser's Fetch Metadata must say the navigation came from
 * the host itself (or was typed); a browser too old to send it must name the host as the referrer.
 */
function signOutAskedByHost(request: FastifyRequest, site: ProtectedSite): boolean {
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite !== undefined) return fetchSite === "same-origin" || fetchSite === "none";
  const referer = request.headers.referer;
  return referer !== undefined && URL.canParse(referer) && new URL(referer).origin === site.origin;
}

function noStore(reply: FastifyReply) {
  return reply.header("cache-control", "no-store");
}

/** nginx auth_request: a site that speaks no protocol, protected by KPI ID (issue 59, point 2). */
export const forwardAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  // nginx's auth_request subrequest is a GET whatever the method of the request it guards (a posted form too).
  app.route({
    method: "GET",
    url: forwardAuthPaths.check,
    schema: {
      tags,
      summary: "nginx auth_request: may this request through?",
      description:
        `${headersNote} The protected host's own cookie decides, read afresh every time: 200 with ` +
        "`X-KPI-ID-User-Id`, `-Username`, `-Name`, `-Email`, `-Affiliations` (those the application names; " +
        "non-ASCII percent-encoded as UTF-8); 401 `forward_auth.sign_in_required` without a live cookie (no " +
        "cookie, another host's, a revoked KPI ID session, a disabled person); 403 `forward_auth.no_access`.",
      response: { 200: z.null(), 401: errorBodySchema, 403: errorBodySchema },
    },
    handler: async (request, reply) => {
      noStore(reply);
      const site = await protectedSite(request);
      const token = request.cookies[site.cookieName];
      const visitor = token
        ? await siteVisitor(app.db, token, site.application.id, app.config.sessions, app.clock())
        : undefined;
      if (!visitor) throw new AppError("forward_auth.sign_in_required");
      if (!(await hasApplicationAccess(app.db, visitor.id, site.application.id))) {
        throw new AppError("forward_auth.no_access");
      }
      reply.headers(visitorHeaders(visitor, site.application.forward_auth_headers ?? []));
      return reply.code(200).send(null);
    },
  });

  app.get(
    forwardAuthPaths.start,
    {
      schema: {
        tags,
        summary: "nginx: send the person to sign in",
        description:
          `${headersNote} 302 to KPI ID's app redirect for this application, with the original address (when it ` +
          "is on the protected host) as the state the ticket carries back; the sign-in, access, step-up and " +
          "ticket are the ticket path's own. Sets a short-lived cookie on the host binding the sign-in to this browser " +
          "(its value leads the state, `value~address`).",
        response: { 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const site = await protectedSite(request);
      const link = appRedirectPath({
        appId: site.application.id,
        state: bindSignIn(reply, site, originalUrl(request)),
        redirectUri: site.callback,
      });
      return noStore(reply).redirect(`${app.config.publicUrl}${link}`, 302);
    },
  );

  app.get(
    forwardAuthPaths.callback,
    {
      schema: {
        tags,
        summary: "nginx: the protected host's cookie, for a ticket",
        description:
          `${headersNote} Reached through the protected host. Redeems the one-time ticket (this application's, ` +
          "from a live KPI ID session) and sets the host's own cookie (`__Host-kpi_id_site` over https; HttpOnly, " +
          "SameSite=Lax), bound to that session; 302 to the state's address when it is on the host. A state that " +
          "is not this browser's own sign-in (its start cookie): 302 to the address, the ticket not taken. 401 " +
          "`ticket.invalid`.",
        querystring: z.object({ ticketId: field, state: field }),
        response: { 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const site = await protectedSite(request);
      const applicationId = site.application.id;
      const { ticketId, state } = request.query;
      const { bound: startedHere, returnTo } = signInBoundHere(request, site, state);
      // A ticket this browser did not ask for (an attacker's link, the apps list's): not taken. The person goes
      // back to the site, which starts a sign-in of their own, straight through when they are signed in.
      if (!startedHere) {
        await audit(request, { type: "ticket_exchange", result: "failure", applicationId, reason: "state.mismatch" });
        return reply.redirect(returnTo, 302);
      }
      forgetSignInBinding(reply, site);
      const redeemed =
        ticketId && cameThroughSite(request, site)
          ? await redeemSiteTicket(app.db, ticketId, applicationId, app.clock())
          : undefined;
      if (!redeemed?.sessionId) {
        await audit(request, { type: "ticket_exchange", result: "failure", applicationId, reason: "ticket.invalid" });
        throw new AppError("ticket.invalid");
      }
      const bound = { applicationId, sessionId: redeemed.sessionId, userId: redeemed.userId };
      const token = await startSiteSession(app.db, bound, app.clock());
      await audit(request, {
        type: "ticket_exchange",
        result: "success",
        applicationId,
        userId: redeemed.userId,
        authMethod: redeemed.authMethod,
        details: { via: "nginx" },
      });
      reply.setCookie(site.cookieName, token, siteCookieOptions(site));
      return reply.redirect(returnTo, 302);
    },
  );

  app.get(
    forwardAuthPaths.signOut,
    {
      schema: {
        tags,
        summary: "nginx: sign out of the protected host",
        description:
          `${headersNote} Forgets the host's cookie and clears it; 302 to \`rd\` when it is on the host, else its ` +
          "front page. Only a link on the host itself signs out (`Sec-Fetch-Site: same-origin` or `none`; without " +
          "Fetch Metadata, a `Referer` on the host): from another site, 302 to the address and the person stays " +
          "signed in. The KPI ID session goes on (sign out of it on KPI ID's own pages).",
        querystring: z.object({ rd: field }),
        response: { 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const site = await protectedSite(request);
      const back = returnAddress(site, request.query.rd);
      // A cross-site link does nothing but bring the person to the site, still signed in.
      if (!signOutAskedByHost(request, site)) return reply.redirect(back, 302);
      const token = request.cookies[site.cookieName];
      const ended = token ? await endSiteSession(app.db, token, site.application.id) : undefined;
      if (ended) {
        await audit(request, {
          type: "logout",
          result: "success",
          applicationId: site.application.id,
          userId: ended.userId,
          details: { via: "nginx" },
        });
      }
      reply.clearCookie(site.cookieName, siteCookieOptions(site));
      return reply.redirect(back, 302);
    },
  );
};
