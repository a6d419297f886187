import { text } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../errors.ts";

/** Probes for load balancers: /health says the process lives, /ready that it can serve. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    { schema: { hide: true, response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/ready",
    { schema: { hide: true, response: { 200: z.object({ status: z.literal("ready"), database: text() }) } } },
    async () => {
      if (!(await app.database.ping())) throw new AppError("service.database_unavailable", { retryAfterSeconds: 5 });
      return { status: "ready" as const, database: app.database.kind };
    },
  );
};
