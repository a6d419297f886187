import { errorBodySchema, internalAuthRequestSchema, internalAuthResponseSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { consumeLoginGrant } from "../../model/sessions/grants.ts";
import type { SignInStrength } from "../../model/sessions/strength.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { fromBrowser } from "../../platform/http/security.ts";
import { completeSignIn } from "../session/complete-sign-in.ts";

/**
 * The grant-for-cookie exchange every method that answers a login grant ends in (password, Diia, a second
 * factor): the grant is taken once and the sign-in completes (sign-in/session/complete-sign-in.ts).
 */
export const grantExchangeRoutes: FastifyPluginAsyncZod = async (app) => {
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
};
