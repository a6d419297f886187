import {
  errorBodySchema,
  internalAuthRequestSchema,
  internalAuthResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  text,
} from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { completeSignIn } from "../../model/sessions/complete-sign-in.ts";
import { clearSessionCookie, readSessionCookie } from "../../model/sessions/cookie.ts";
import { currentSession } from "../../model/sessions/current.ts";
import { audit } from "../../platform/audit/record.ts";
import { AppError } from "../../platform/errors.ts";
import { fromBrowser } from "../../platform/http/security.ts";
import "../../model/sessions/front-channel-sign-out.ts";
import { deleteSessionByToken } from "../../model/sessions/store.ts";
import type { SignInStrength } from "../../model/sessions/strength.ts";
import { consumeLoginGrant } from "./grants.ts";
import { signInWithPassword } from "./password-signin.ts";

const okSchema = z.object({ ok: z.literal(true) });
/** next: where the browser goes to sign out of the SAML SPs of the session (front-channel Single Logout). */
const logoutSchema = okSchema.extend({ next: text().optional() });

/** Ends this browser's (or server-side client's) session, OpenID Connect's with it, and clears the cookie. */
async function logOut(request: FastifyRequest, reply: FastifyReply, inBrowser = false) {
  const token = readSessionCookie(request);
  await request.server.protocolSignOut.inBrowser(request, reply);
  // In the browser, the SAML SPs this session signed in to are told through it (front-channel), so it goes there next.
  const session = inBrowser && token ? await currentSession(request, reply) : undefined;
  const next = session ? await request.server.frontChannelSignOut(request, session.id) : undefined;
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

/** Password sign-in, the grant-for-cookie exchange and logout. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/auth",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Check a username and password",
        description:
          "Answers a one-time login grant (`sessionId`, valid for LOGIN_GRANT_TTL_SECONDS) to exchange at " +
          "/api/auth/internal. Unknown user and wrong password give the same 401. Failures are throttled " +
          "per account and per address: 429 `auth.too_many_attempts` with Retry-After.",
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => signInWithPassword(request, request.body),
  );

  app.post(
    "/api/auth/internal",
    {
      config: { csrf: "browsers" },
      schema: {
        tags: ["sign-in"],
        summary: "Exchange a login grant for the session cookie",
        description:
          "Consumes the one-time grant from /api/auth (or the Diia sign-in) and sets the HttpOnly session " +
          "cookie with a fresh token. A used, expired or unknown grant gives 401 `auth.grant_invalid`. " +
          "`next` says where the browser goes now: the apps list, or what the sign-in was started for " +
          "(an application's OpenID Connect sign-in), kept by the server in a signed pending sign-in cookie. " +
          "Browsers must send Origin and JSON; an existing integration's server (no Origin, no Sec-Fetch-Site) " +
          "may call it too, for the server-side Diia flow, and keeps the cookie it gets.",
        body: internalAuthRequestSchema,
        response: { 200: internalAuthResponseSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const login = await consumeLoginGrant(app.db, request.body.sessionId, app.clock(), {
        waitForDisk: !fromBrowser(request),
      });
      if (!login) {
        await audit(request, { type: "session_start", result: "failure", reason: "auth.grant_invalid" });
        throw new AppError("auth.grant_invalid");
      }
      const strength = login.amr?.length ? (login.amr as SignInStrength) : undefined;
      const { next } = await completeSignIn(request, reply, {
        userId: login.userId,
        method: login.authMethod,
        strength,
        person: login.person,
      });
      return { ok: true as const, next };
    },
  );

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
