import {
  changePasswordRequestSchema,
  errorBodySchema,
  passwordChangedSchema,
  passwordStatusSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { changePassword } from "../../sign-in/password/password-change.ts";
import { requireSession } from "../../sign-in/session/current.ts";

/** The account page's password: whether there is one, and changing (or setting) it. */
export const accountPasswordRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/password",
    {
      schema: {
        tags: ["account"],
        summary: "Whether I have a password",
        description: "`hasPassword` false: the person signs in with Google or Diia only and may set a password.",
        response: { 200: passwordStatusSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return { hasPassword: session.user.password_hash !== null };
    },
  );

  app.post(
    "/api/account/password",
    {
      schema: {
        tags: ["account"],
        summary: "Change (or set) my password",
        description:
          "Needs a sign-in within REAUTH_MAX_AGE_SECONDS (else 403 `auth.reauth_required`) and the current " +
          "password when the person has one (400 `password.current_wrong`; wrong ones are throttled like " +
          "sign-ins: 429 `auth.too_many_attempts`). The new password: at least 8 characters (15 advised), at " +
          "most 128, any characters, not common and not built on the person's names or the service's " +
          "(`password.too_short`, `password.too_long`, `password.blocklisted`). Every other session of the " +
          "person ends (their OpenID Connect sessions too, with back-channel logout); the person is told by mail.",
        body: changePasswordRequestSchema,
        response: {
          200: passwordChangedSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return { endedSessions: await changePassword(request, session, request.body) };
    },
  );
};
