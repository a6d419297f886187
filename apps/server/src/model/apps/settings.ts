// What an operator may change of an application, each change by name (issue 76): its titles and descriptions, its
// callback addresses, its policy (tax id released, second factor required) and its OpenID Connect side. The rules
// of what may change live here with the write: OpenID Connect needs a redirect URI and `openid` is always among its
// scopes. Turning OpenID Connect off ends every token the application holds: model/oidc/application-settings.ts
// writes these settings and ends the grants in one transaction (this area imports no other, so access may ask it
// about an application's gate). The callers (the console, `app update`, `app oidc`) check the values' form and
// answer in their own words.
import type { Updateable } from "kysely";
import type { ApplicationRow, ApplicationsTable, Db } from "../../platform/db/schema.ts";

/** Scopes an operator may allow an application; `openid` is always allowed. */
export const oidcScopes = ["openid", "profile", "email", "kpi", "offline_access", "tax_id"] as const;
export type OidcScope = (typeof oidcScopes)[number];

/** Allowed when the operator names none: everything but the tax id. */
export const defaultOidcScopes: OidcScope[] = ["openid", "profile", "email", "kpi", "offline_access"];

export function isOidcScope(value: string): value is OidcScope {
  return (oidcScopes as readonly string[]).includes(value);
}

/** An application cannot be an OpenID Connect client without a redirect URI. */
export class MissingRedirectUriError extends Error {
  override name = "MissingRedirectUriError";
}

/** The OpenID Connect side; unset fields keep their value, an empty list of redirect URIs clears them. */
export interface OidcClientSettings {
  enabled?: boolean;
  redirectUris?: readonly string[];
  postLogoutRedirectUris?: readonly string[];
  scopes?: readonly OidcScope[];
  /** A public client (no secret: `token_endpoint_auth_method` none). */
  public?: boolean;
  firstParty?: boolean;
  backchannelLogoutUri?: string | null;
  deviceFlow?: boolean;
}

/** An edit of an application; unset fields keep their value. */
export interface ApplicationSettings {
  title?: string;
  description?: string;
  titleEn?: string;
  descriptionEn?: string;
  /** The first is the ticket's callback, the rest the extra ones it may name (duplicates dropped). */
  callbackUrls?: readonly [string, ...string[]];
  releaseTaxId?: boolean;
  requireMfa?: boolean;
  /** Given: the OpenID Connect side changes too (and is checked whole). */
  oidc?: OidcClientSettings;
}

type Columns = Updateable<ApplicationsTable>;

function describedColumns(settings: ApplicationSettings): Columns {
  const columns: Columns = {};
  if (settings.title !== undefined) columns.title = settings.title;
  if (settings.description !== undefined) columns.description = settings.description;
  if (settings.titleEn !== undefined) columns.title_en = settings.titleEn;
  if (settings.descriptionEn !== undefined) columns.description_en = settings.descriptionEn;
  if (settings.callbackUrls !== undefined) {
    const [callbackUrl, ...extra] = settings.callbackUrls;
    columns.callback_url = callbackUrl;
    columns.extra_callback_urls = [...new Set(extra)].filter((url) => url !== callbackUrl);
  }
  if (settings.releaseTaxId !== undefined) columns.release_tax_id = settings.releaseTaxId;
  if (settings.requireMfa !== undefined) columns.require_mfa = settings.requireMfa;
  return columns;
}

function oidcColumns(application: ApplicationRow, oidc: OidcClientSettings): Columns {
  const columns: Columns = {};
  if (oidc.enabled !== undefined) columns.oidc_enabled = oidc.enabled;
  if (oidc.redirectUris !== undefined) columns.redirect_uris = [...oidc.redirectUris];
  if (oidc.postLogoutRedirectUris) columns.post_logout_redirect_uris = [...oidc.postLogoutRedirectUris];
  if (oidc.scopes) columns.allowed_scopes = [...new Set(["openid", ...oidc.scopes])];
  else if (oidc.enabled && application.allowed_scopes.length === 0) columns.allowed_scopes = defaultOidcScopes;
  if (oidc.public !== undefined) columns.token_endpoint_auth_method = oidc.public ? "none" : "client_secret_basic";
  if (oidc.firstParty !== undefined) columns.first_party = oidc.firstParty;
  if (oidc.backchannelLogoutUri !== undefined) columns.backchannel_logout_uri = oidc.backchannelLogoutUri;
  if (oidc.deviceFlow !== undefined) columns.oidc_device_flow = oidc.deviceFlow;
  return columns;
}

/**
 * Writes these settings of the application and answers its row as it now is (in the caller's transaction:
 * model/oidc/application-settings.ts's changeApplicationSettings). Throws MissingRedirectUriError, before any write,
 * when the application would be an OpenID Connect client without a redirect URI.
 */
export function writeApplicationSettings(
  db: Db,
  application: ApplicationRow,
  settings: ApplicationSettings,
  now: Date,
): Promise<ApplicationRow> {
  const columns: Columns = { ...describedColumns(settings), updated_at: now };
  const oidc = settings.oidc;
  if (oidc !== undefined) Object.assign(columns, oidcColumns(application, oidc));
  const enabled = columns.oidc_enabled ?? application.oidc_enabled;
  const redirectUris = columns.redirect_uris ?? application.redirect_uris;
  if (oidc !== undefined && enabled && redirectUris.length === 0) {
    throw new MissingRedirectUriError("OpenID Connect needs at least one --redirect-uri");
  }
  return db
    .updateTable("applications")
    .set(columns)
    .where("id", "=", application.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
