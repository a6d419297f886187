import type { FastifyInstance } from "fastify";
import { forwardAuthRoutes } from "./routes.ts";
import { forwardAuthSignOut } from "./sign-out.ts";

/** nginx auth_request (docs/nginx-auth-request.md): its routes, and its part in every sign-out. */
export async function registerForwardAuth(app: FastifyInstance): Promise<void> {
  app.signOut.register(forwardAuthSignOut);
  await app.register(forwardAuthRoutes);
}
