import type { FastifyInstance } from "fastify";
import { casLoginRoutes } from "./login-routes.ts";
import { casSignOut } from "./single-logout.ts";
import { casValidationRoutes } from "./validate-routes.ts";

/** CAS Protocol 3.0 under /cas (docs/cas.md), and its single logout in every sign-out. */
export async function registerCas(app: FastifyInstance): Promise<void> {
  app.signOut.register(casSignOut(app));
  await app.register(casLoginRoutes);
  await app.register(casValidationRoutes);
}
