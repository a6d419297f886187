import {
  appRedirectUriMaxLength,
  appStateMaxLength,
  GOOGLE_ERROR_PARAM,
  type GoogleErrorReason,
  text,
} from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { isNavigation } from "../../platform/http/navigation.ts";
import { rememberContinueTo } from "../session/continue-cookie.ts";
import { GoogleOpenIdClient } from "./client.ts";
import { googleErrorReason } from "./error-reason.ts";
import { accountPageAfterLink } from "./link.ts";
import { googleLinkRoutes } from "./link-routes.ts";
import { beginGoogleSignIn, completeGoogleSignIn, isLinkPending } from "./service.ts";

const appIdSchema = z.uuid();

/** An appId the web app forwards: a uuid, or nothing. Anything else never reaches a URL we build. */
function parseAppId(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!appIdSchema.safeParse(value).success) {
    throw new AppError("request.validation_failed", {
      details: [{ path: "querystring.appId", message: "not a uuid" }],
    });
  }
  return value;
}

/** The login page with the Google alert; the reason lets it say what the person can do. */
function backToLoginWithAlert(request: FastifyRequest, reply: FastifyReply, reason: GoogleErrorReason): FastifyReply {
  const query = new URLSearchParams({ [GOOGLE_ERROR_PARAM]: reason });
  return reply.redirect(`/${requestLanguage(request)}/?${query}`, 302);
}

const authQuerySchema = z.object({
  code: text().min(1).max(2048),
  state: text().min(1).max(1024),
});

/** Sign-in with Google: the redirect to the provider and the answer the /google-auth page forwards. */
export const googleRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = app.config.google;
  const client = settings ? new GoogleOpenIdClient(settings, `${app.config.publicUrl}/google-auth`) : undefined;
  const requireClient = () => {
    if (!client) throw new AppError("google.not_configured", { retryAfterSeconds: 30 });
    return client;
  };

  app.get(
    "/api/google/redirect",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Start signing in with Google",
        description:
          "Redirects to the provider (authorization code, PKCE S256, nonce). `state` is random and bound to a " +
          "short-lived signed HttpOnly cookie; the appId, if any, is kept in the server's pending sign-in " +
          "cookie with the application's own `state` and `redirectUri`, not in Google's `state`. A browser whose sign-in cannot start is sent to " +
          "`/{lang}/?google_auth_error={reason}`; other callers get 400 `request.validation_failed` " +
          "(appId not a uuid) or 503 `google.not_configured`.",
        querystring: z.object({
          appId: text().max(200).optional(),
          // The application's sign-in link's own values, kept with appId (a longer or odd one is not carried).
          state: text().max(appStateMaxLength).optional().catch(undefined),
          redirectUri: text().max(appRedirectUriMaxLength).optional().catch(undefined),
        }),
      },
    },
    async (request, reply) => {
      try {
        const appId = parseAppId(request.query.appId);
        const url = await beginGoogleSignIn(requireClient(), reply);
        const { state, redirectUri } = request.query;
        if (appId) rememberContinueTo(reply, { kind: "application", appId, state, redirectUri });
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (error instanceof AppError && isNavigation(request)) {
          return backToLoginWithAlert(request, reply, googleErrorReason(error));
        }
        throw error;
      }
    },
  );

  app.get(
    "/google/auth",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Finish signing in with Google",
        description:
          "The /google-auth page sends the browser here with the provider's `code` and `state`. Checks " +
          "them against this browser's pending sign-in cookie, exchanges the code, validates the ID token " +
          "and finds the campus person (linked Google subject, else the one active account with the " +
          "verified e-mail). Success sets the session cookie. When the account page started the flow (link " +
          "mode, kept in the pending cookie) the Google account is linked to the signed-in person instead, " +
          "and the browser returns to `/{lang}/account?google_link=linked` (or `=reason` on failure). A browser navigation (Accept: text/html) is " +
          "then redirected (302) where the sign-in continues (the apps list, the application, the OpenID " +
          "Connect interaction), and on failure to `/{lang}/?google_auth_error={reason}`. Other callers " +
          "get 200 `{ok: true}`, or 401 `google.failed` and no session. Answers are throttled per address: " +
          "429 `auth.too_many_attempts` with Retry-After.",
        querystring: authQuerySchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      try {
        const next = await completeGoogleSignIn(requireClient(), request, reply, request.query);
        return isNavigation(request) ? reply.redirect(next, 302) : { ok: true as const };
      } catch (error) {
        if (error instanceof AppError && isNavigation(request)) {
          if (isLinkPending(request))
            return reply.redirect(accountPageAfterLink(request, googleErrorReason(error)), 302);
          return backToLoginWithAlert(request, reply, googleErrorReason(error));
        }
        throw error;
      }
    },
  );

  await app.register(googleLinkRoutes(requireClient));
};
