import { z } from "zod";
import { callbackUrlSchema } from "../../model/apps/service.ts";
import { type OidcClientSettings, oidcScopes } from "../../model/apps/settings.ts";
import { changeApplicationSettings } from "../../model/oidc/application-settings.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";

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

/**
 * Checks the settings' form (a ZodError otherwise) and changes the application's OpenID Connect side
 * (model/apps/settings.ts keeps the rules: MissingRedirectUriError; model/oidc/application-settings.ts ends the
 * tokens when it is turned off).
 */
export function applyOidcSettings(db: Db, application: ApplicationRow, input: OidcSettings): Promise<ApplicationRow> {
  const settings: OidcClientSettings = oidcSettingsSchema.parse(input);
  return changeApplicationSettings(db, application, { oidc: settings });
}
