import { errorBodySchema, loginRequestSchema, loginResponseSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { signInWithPassword } from "./password-signin.ts";

/** Password sign-in: the credential check that answers a login grant (grants/exchange-routes.ts takes it). */
export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
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
};
