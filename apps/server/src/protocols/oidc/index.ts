import type { FastifyInstance } from "fastify";
import { deviceRoutes } from "./device-routes.ts";
import { interactionRoutes } from "./interaction-routes.ts";
import { oidcSignOut } from "./logout.ts";
import { mountProvider } from "./mount.ts";
import { OidcRuntime } from "./runtime.ts";

declare module "fastify" {
  interface FastifyInstance {
    oidc: OidcRuntime;
  }
}

/** OpenID Connect: the provider at /oidc and our interaction endpoints under /api/oidc. */
export async function registerOidc(app: FastifyInstance): Promise<void> {
  const runtime = await OidcRuntime.start(app);
  app.decorate("oidc", runtime);
  app.signOut.register(oidcSignOut(app));
  app.addHook("onClose", async () => runtime.stop());
  await mountProvider(app, runtime);
  await app.register(interactionRoutes(runtime));
  await app.register(deviceRoutes);
}
