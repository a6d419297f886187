import type { FastifyInstance } from "fastify";
import { findApplicationByIdOrName } from "../../model/apps/queries.ts";
import { applyOidcSettings } from "../../protocols/oidc/settings.ts";
import { DEMO_SITE_ORIGIN } from "./demo-data.ts";

/** The demo application that also signs in with OpenID Connect (same id and secret as its ticket flow). */
export const demoOidcApplicationName = "demo-site";

/**
 * In the demo campus the demo third-party site is also an OpenID Connect
 * client: code flow with PKCE on {DEMO_SITE_ORIGIN}/oidc/callback, not
 * first-party, so the consent screen shows; it may also ask for device codes (RFC 8628). Its credentials are the ones in
 * DATA_DIR/demo-apps.json.
 */
export async function enableDemoOidcClient(app: FastifyInstance): Promise<void> {
  const application = await findApplicationByIdOrName(app.db, demoOidcApplicationName);
  if (!application) return;
  await applyOidcSettings(app.db, application, {
    enabled: true,
    redirectUris: [`${DEMO_SITE_ORIGIN}/oidc/callback`],
    postLogoutRedirectUris: [`${DEMO_SITE_ORIGIN}/oidc/signed-out`, `${DEMO_SITE_ORIGIN}/`],
    scopes: ["openid", "profile", "email", "kpi", "offline_access"],
    firstParty: false,
    // The manual's device-flow sample (node device.mjs) runs against the sandbox with these credentials.
    deviceFlow: true,
  });
}
