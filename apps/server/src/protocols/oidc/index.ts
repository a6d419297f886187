import { deleteExpiredOidcPayloads } from "../../model/oidc/payloads.ts";
import { continuingToApplication, gateHealthReasons, type ProtocolRecord } from "../record.ts";
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
export const oidcProtocol: ProtocolRecord = {
  name: "oidc",
  async register(app) {
    const runtime = await OidcRuntime.start(app);
    app.decorate("oidc", runtime);
    app.addHook("onClose", async () => runtime.stop());
    await mountProvider(app, runtime);
    await app.register(interactionRoutes(runtime));
    await app.register(deviceRoutes);
  },
  signOut: oidcSignOut,
  // An interaction still waiting (unexpired) names the client that started it; the device page waits on nothing.
  async continuingTo(app, waiting) {
    const interaction = await app.oidc.provider.Interaction.find(waiting);
    const clientId = interaction?.params.client_id;
    return typeof clientId === "string" ? continuingToApplication(app.db, clientId) : undefined;
  },
  health: {
    protocol: "oidc",
    reasons: [
      ...gateHealthReasons,
      "redirect_uri_not_registered",
      "pkce_missing",
      "invalid_client",
      "wrong_secret",
      "invalid_grant",
    ],
  },
  // The provider's codes, tokens, sessions and interactions past their expiry.
  cleanUp: async (db, now) => ({ oidcPayloads: await deleteExpiredOidcPayloads(db, now) }),
};
