import { findPendingRequest } from "../../model/saml/pending-requests.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { continuingToApplication, type ProtocolRecord } from "../record.ts";
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
export const samlProtocol: ProtocolRecord = {
  name: "saml",
  async register(app) {
    app.decorate("saml", new SamlRuntime(app));
    await app.register(metadataRoutes);
    await app.register(ssoRoutes);
    await app.register(sloRoutes);
    await app.register(consentRoutes);
    // KPI ID as a service provider too: researchers of other universities sign in at home (issue 78).
    await app.register(visitorRoutes);
    scheduleFederationRefresh(app);
  },
  signOut: samlSignOut,
  // An AuthnRequest waiting on the server names its SP's application when it has one, else the SP's own name.
  async continuingTo(app, waiting) {
    const now = app.clock();
    const pending = await findPendingRequest(app.db, waiting, now);
    const provider = pending ? await findServiceProvider(app.db, pending.sp_entity_id, now) : undefined;
    if (!provider) return undefined;
    if (provider.application_id) return continuingToApplication(app.db, provider.application_id);
    return provider.display_name ? { title: provider.display_name, stage: "reviewed" } : undefined;
  },
};
