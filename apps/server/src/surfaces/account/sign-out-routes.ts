import { errorBodySchema, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { signOutBrowser } from "../../sign-in/session/sign-out.ts";

const okSchema = z.object({ ok: z.literal(true) });
/** next: where the browser goes to sign out of the SAML SPs of the session (front-channel Single Logout). */
const logoutSchema = okSchema.extend({ next: text().optional() });

/**
 * Signs this browser (or a server-side client holding its cookie) out through the one path: every application
 * the session reached is told (signOutBrowser). In the browser, the session's SAML SPs are told through it
 * (front channel), so it goes there next and ends at KPI ID's sign-in screen.
 */
async function logOut(request: FastifyRequest, reply: FastifyReply, inBrowser = false) {
  const ended = await signOutBrowser(request, reply, inBrowser ? `/${requestLanguage(request)}/` : undefined);
  for (const userId of ended.users) await audit(request, { type: "logout", result: "success", userId });
  return ended.next ? { ok: true as const, next: ended.next } : { ok: true as const };
}

/**
 * GET sign-out is for existing integrations' servers. A browser tells where the request came from
 * (Sec-Fetch-Site): typed or from KPI ID's own pages it may sign out; from another site (a link or an
 * image on any page) it may not, or any site could sign people out.
 */
const crossSiteFetches = new Set(["cross-site", "same-site"]);

/** KPI ID's own sign-out: this browser's session, and every application it reached (signOutBrowser). */
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
