import type { KoaContextWithOIDC } from "oidc-provider";
import { ownedApplication } from "../../model/developers/store.ts";
import { kpiSessionOf } from "./kpi-session.ts";
import { type RedirectUriDetails, renderError } from "./pages.ts";
import type { ProviderOptions } from "./provider-options.ts";

/**
 * The provider's error page. For an unregistered redirect URI, the application's owner, signed in to KPI ID, also
 * sees the address that was sent and the registered ones (issue 60): what to fix, without asking anyone. Nobody
 * else does — the registered addresses are the owner's business, and a stranger learns nothing new.
 */
export function ownerAwareRenderError(options: ProviderOptions) {
  return async (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }) => {
    await renderError(ctx, out, await detailsForOwner(ctx, out.error, options));
  };
}

async function detailsForOwner(
  ctx: KoaContextWithOIDC,
  error: string,
  options: ProviderOptions,
): Promise<RedirectUriDetails | undefined> {
  const client = ctx.oidc?.client;
  const sent = ctx.oidc?.params?.redirect_uri;
  if (error !== "invalid_redirect_uri" || !client || typeof sent !== "string") return undefined;
  try {
    const session = await kpiSessionOf(ctx, options);
    if (!session) return undefined;
    const application = await ownedApplication(options.db, session.userId, client.clientId);
    return { sent, registered: [...application.redirect_uris] };
  } catch {
    // Not an owner (or the session could not be read): the page everyone sees.
    return undefined;
  }
}
