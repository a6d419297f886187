import type { FastifyInstance } from "fastify";
import { casLoginRoutes } from "./login-routes.ts";
import { casValidationRoutes } from "./validate-routes.ts";

/** CAS Protocol 3.0 under /cas (docs/cas.md). */
export async function registerCas(app: FastifyInstance): Promise<void> {
  await app.register(casLoginRoutes);
  await app.register(casValidationRoutes);
}
