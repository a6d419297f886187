import type { Kysely, Updateable } from "kysely";
import { z } from "zod";
import { updateApplicationRow } from "../../model/apps/queries.ts";
import { callbackUrlSchema } from "../../model/apps/service.ts";
import { endOidcGrants } from "../../model/oidc/grants.ts";
import type { ApplicationRow, ApplicationsTable, Database } from "../../platform/db/schema.ts";
import { defaultOidcScopes, oidcScopes } from "./clients.ts";

/** An application's OpenID Connect settings as operators give them; unset fields keep their value. */
export const oidcSettingsSchema = z.object({
  enabled: z.boolean().optional(),
  redirectUris: z.array(callbackUrlSchema).min(1).max(20).optional(),
  postLogoutRedirectUris: z.array(callbackUrlSchema).max(20).optional(),
  scopes: z.array(z.enum(oidcScopes)).max(oidcScopes.length).optional(),
  public: z.boolean().optional(),
  firstParty: z.boolean().optional(),
  backchannelLogoutUri: callbackUrlSchema.nullable().optional(),
  deviceFlow: z.boolean().optional(),
});
export type OidcSettings = z.input<typeof oidcSettingsSchema>;

/** An application cannot be an OpenID Connect client without a redirect URI. */
export class MissingRedirectUriError extends Error {
  override name = "MissingRedirectUriError";
}

export async function applyOidcSettings(
  db: Kysely<Database>,
  application: ApplicationRow,
  input: OidcSettings,
): Promise<ApplicationRow> {
  const settings = oidcSettingsSchema.parse(input);
  const changes: Updateable<ApplicationsTable> = { updated_at: new Date() };
  if (settings.enabled !== undefined) changes.oidc_enabled = settings.enabled;
  if (settings.redirectUris) changes.redirect_uris = settings.redirectUris;
  if (settings.postLogoutRedirectUris) changes.post_logout_redirect_uris = settings.postLogoutRedirectUris;
  if (settings.scopes) changes.allowed_scopes = [...new Set(["openid", ...settings.scopes])];
  else if (settings.enabled && application.allowed_scopes.length === 0) changes.allowed_scopes = defaultOidcScopes;
  if (settings.public !== undefined)
    changes.token_endpoint_auth_method = settings.public ? "none" : "client_secret_basic";
  if (settings.firstParty !== undefined) changes.first_party = settings.firstParty;
  if (settings.backchannelLogoutUri !== undefined) changes.backchannel_logout_uri = settings.backchannelLogoutUri;
  if (settings.deviceFlow !== undefined) changes.oidc_device_flow = settings.deviceFlow;
  const enabled = changes.oidc_enabled ?? application.oidc_enabled;
  const redirectUris = changes.redirect_uris ?? application.redirect_uris;
  if (enabled && redirectUris.length === 0)
    throw new MissingRedirectUriError("OpenID Connect needs at least one --redirect-uri");
  const write = async (tx: Kysely<Database>) => {
    // Turning OpenID Connect off ends every token the application holds.
    if (!enabled) await endOidcGrants(tx, { applicationId: application.id });
    return updateApplicationRow(tx, application.id, changes);
  };
  // Inside a caller's transaction (the console's whole edit), part of it; otherwise a transaction of its own.
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
