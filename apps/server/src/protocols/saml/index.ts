import type { FastifyInstance } from "fastify";
import { consentRoutes } from "./consent-routes.ts";
import { scheduleFederationRefresh } from "./federation-schedule.ts";
import { metadataRoutes } from "./metadata-routes.ts";
import { SamlRuntime } from "./runtime.ts";
import { samlSignOut } from "./sign-out.ts";
import { sloRoutes } from "./slo-routes.ts";
import { ssoRoutes } from "./sso-routes.ts";
import { visitorRoutes } from "./visitors/routes.ts";

declare module "fastify" {
  interface FastifyInstance {
    saml: SamlRuntime;
  }
}

/** The SAML 2.0 identity provider under /saml (docs/saml.md), and its Single Logout in every sign-out. */
export async function registerSaml(app: FastifyInstance): Promise<void> {
  const runtime = new SamlRuntime(app);
  app.decorate("saml", runtime);
  app.signOut.register(samlSignOut(app));
  await app.register(metadataRoutes);
  await app.register(ssoRoutes);
  await app.register(sloRoutes);
  await app.register(consentRoutes);
  await app.register(visitorRoutes);
  scheduleFederationRefresh(app);
}
