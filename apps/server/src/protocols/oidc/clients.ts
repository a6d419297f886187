import type { AdapterPayload } from "oidc-provider";
import type { ApplicationRow } from "../../platform/db/schema.ts";

/** RFC 8628 §3.4's grant type: only applications an operator allowed it may ask for device codes. */
export const deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * An application as oidc-provider client metadata. The stored secret is a
 * SHA-256 hash, so `client_secret` carries the hash and the provider compares
 * the hash of what the client presents (see provider.ts).
 */
export function clientMetadata(application: ApplicationRow): AdapterPayload {
  const isPublic = application.token_endpoint_auth_method === "none";
  const browserSignIn = application.redirect_uris.length > 0;
  const scopes = new Set<string>(["openid", ...application.allowed_scopes]);
  return {
    client_id: application.id,
    ...(isPublic ? {} : { client_secret: application.secret_hash }),
    client_name: application.title,
    application_type: "web",
    token_endpoint_auth_method: application.token_endpoint_auth_method,
    // Copies: the row may be the frozen one every request shares (apps/cache.ts).
    redirect_uris: [...application.redirect_uris],
    post_logout_redirect_uris: [...application.post_logout_redirect_uris],
    // A device or command-line tool registered without a redirect URI (issue 60) signs in only by device codes.
    grant_types: [
      ...(browserSignIn ? ["authorization_code"] : []),
      "refresh_token",
      ...(application.oidc_device_flow ? [deviceCodeGrantType] : []),
    ],
    response_types: browserSignIn ? ["code"] : [],
    scope: [...scopes].join(" "),
    id_token_signed_response_alg: "RS256",
    // Every ID token says when the person signed in (the KPI ID session's start), asked or not.
    require_auth_time: true,
    ...(application.backchannel_logout_uri
      ? { backchannel_logout_uri: application.backchannel_logout_uri, backchannel_logout_session_required: true }
      : {}),
  };
}

/** Finds an application by id; undefined for none (apps/cache.ts answers from memory). */
export type FindApplication = (id: string) => Promise<ApplicationRow | undefined>;

export async function findOidcClient(
  findApplication: FindApplication,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  const application = await findApplication(clientId);
  // A suspended application is no client at all: authorization, token and refresh all stop at once.
  if (!application?.oidc_enabled || application.suspended_at) return undefined;
  return clientMetadata(application);
}
