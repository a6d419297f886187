import type { FastifyInstance } from "fastify";
import { startLogoutRound } from "../../model/saml/logout-rounds.ts";
import type { FrontChannelSignOut } from "../../model/sessions/front-channel-sign-out.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { consentRoutes } from "./consent-routes.ts";
import { scheduleFederationRefresh } from "./federation-schedule.ts";
import { metadataRoutes } from "./metadata-routes.ts";
import { logoutRoundPath } from "./paths.ts";
import { SamlRuntime } from "./runtime.ts";
import { sloRoutes } from "./slo-routes.ts";
import { ssoRoutes } from "./sso-routes.ts";

declare module "fastify" {
  interface FastifyInstance {
    saml: SamlRuntime;
  }
}

/** The SAML 2.0 identity provider under /saml (docs/saml.md). */
export async function registerSaml(app: FastifyInstance): Promise<void> {
  const runtime = new SamlRuntime(app);
  app.decorate("saml", runtime);
  // Signing out of KPI ID walks the browser through the session's SAML SPs (front-channel Single Logout).
  const signOut: FrontChannelSignOut = async (request, sessionId) => {
    const round = await startLogoutRound(app.db, {
      sessionIds: [sessionId],
      returnTo: `/${requestLanguage(request)}/`,
      now: app.clock(),
    });
    return round ? logoutRoundPath(round) : undefined;
  };
  app.decorate("frontChannelSignOut", signOut);
  await app.register(metadataRoutes);
  await app.register(ssoRoutes);
  await app.register(sloRoutes);
  await app.register(consentRoutes);
  scheduleFederationRefresh(app);
}
