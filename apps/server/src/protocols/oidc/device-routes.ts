import { deviceContinueSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";

/** The device sign-in page's one call of its own; the rest is the provider's device endpoint (device-flow.ts). */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/device/continue",
    {
      schema: {
        tags: ["openid-connect"],
        summary: "Come back to the device page after signing in",
        description:
          "The device sign-in page (`/{lang}/device`) of a person who is not signed in: the next completed " +
          "sign-in in this browser continues to it, with the code the person came with (kept in the server's " +
          "signed pending sign-in cookie).",
        body: deviceContinueSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const { userCode } = request.body;
      const path = `/device${userCode ? `?user_code=${encodeURIComponent(userCode)}` : ""}`;
      rememberContinueTo(reply, { kind: "protocol", protocol: "oidc", path, underLanguage: true });
      return { ok: true as const };
    },
  );
};
