import { text } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { serverVersion } from "../../platform/release/version.ts";
import { checkReadiness } from "./readiness.ts";

/**
 * Probes for load balancers: /health says the process lives and which release it is (a rolling
 * upgrade is watched by it), /ready that it can serve.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    { schema: { hide: true, response: { 200: z.object({ status: z.literal("ok"), version: text() }) } } },
    async () => ({ status: "ok" as const, version: serverVersion }),
  );

  app.get(
    "/ready",
    {
      schema: { hide: true, response: { 200: z.object({ status: z.literal("ready"), database: text().optional() }) } },
    },
    async () => {
      if (!(await checkReadiness(app)).ready)
        throw new AppError("service.database_unavailable", { retryAfterSeconds: 5 });
      // The database kind helps a developer; in production it only tells an attacker what runs inside.
      return app.config.readyDetails
        ? { status: "ready" as const, database: app.database.kind }
        : { status: "ready" as const };
    },
  );
};
