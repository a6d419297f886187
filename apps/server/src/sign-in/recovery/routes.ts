import {
  diiaRecoveryRequestSchema,
  emailRecoveryRequestSchema,
  errorBodySchema,
  recoveryAcceptedSchema,
  resetCheckRequestSchema,
  resetCheckSchema,
  resetPasswordRequestSchema,
  resetTokenSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requestResetByEmail } from "./email.ts";
import { personOfResetToken, resetPassword, resetTokenForDiia } from "./reset.ts";

const minutes = "PASSWORD_RESET_TTL_SECONDS (30 minutes)";

/** "Forgot password?": a reset link by e-mail or a Diia proof, then a new password. */
export const recoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/recovery/email",
    {
      schema: {
        tags: ["recovery"],
        summary: "Send a password reset link",
        description:
          `The same answer whether or not the address is known. An active person whose verified address it is ` +
          `gets a one-time link, good for ${minutes}; a newer link replaces it. Throttled per address asking ` +
          "and per typed address (429 `request.rate_limited`), and per account (nothing more is sent). " +
          "404 `recovery.not_available` when no mail relay is configured (this deployment offers no e-mail recovery).",
        body: emailRecoveryRequestSchema,
        response: { 200: recoveryAcceptedSchema, 429: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      await requestResetByEmail(request, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/recovery/diia",
    {
      schema: {
        tags: ["recovery"],
        summary: "Turn a Diia proof into a reset token",
        description:
          "Consumes the one-time grant a finished Diia check-request answered (the person signed with Diia; " +
          "the tax id of the certificate found the account) and answers a reset token for /api/recovery/reset " +
          "instead of a session. Any other, used or expired grant: 401 `auth.grant_invalid`.",
        body: diiaRecoveryRequestSchema,
        response: { 200: resetTokenSchema, 401: errorBodySchema },
      },
    },
    async (request) => ({ token: await resetTokenForDiia(request, request.body.sessionId) }),
  );

  app.post(
    "/api/recovery/check",
    {
      schema: {
        tags: ["recovery"],
        summary: "Whether a reset link still works",
        description:
          "For the page the link opens: the person's username and name while the token works; 400 " +
          "`recovery.link_invalid` once it is used, replaced by a newer one, expired or unknown.",
        body: resetCheckRequestSchema,
        response: { 200: resetCheckSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const person = await personOfResetToken(request, request.body.token);
      return { username: person.username, fullName: person.full_name };
    },
  );

  app.post(
    "/api/recovery/reset",
    {
      schema: {
        tags: ["recovery"],
        summary: "Set a new password with a reset token",
        description:
          "The token works once. The new password follows the account page's rules (`password.too_short`, " +
          "`password.too_long`, `password.blocklisted`; the token stays usable after a refusal). Every session " +
          "of the person ends and the person is told by mail.",
        body: resetPasswordRequestSchema,
        response: { 200: recoveryAcceptedSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      await resetPassword(request, request.body.token, request.body.newPassword);
      return { ok: true as const };
    },
  );
};
