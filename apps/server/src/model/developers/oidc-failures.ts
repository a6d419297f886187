import type { IntegrationFailureReason } from "@kpi-id/contracts";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { Db } from "../../platform/db/schema.ts";
import { findApplicationById } from "../apps/queries.ts";
import { recordIntegrationFailure } from "./health.ts";

interface Refusal {
  error?: string;
  error_description?: string;
}

/** What the owner should fix, from the provider's answer; undefined for refusals that are not the integration's. */
export function oidcFailureReason(
  route: "authorization" | "token" | "device",
  refusal: Refusal,
  secretSent = route === "token",
): IntegrationFailureReason | undefined {
  const description = refusal.error_description ?? "";
  if (refusal.error === "invalid_redirect_uri") return "redirect_uri_not_registered";
  if (refusal.error === "invalid_request" && /PKCE|code_challenge/i.test(description)) return "pkce_missing";
  // At the token and device endpoints a refused client that sent a secret sent the wrong one (or an ended one).
  if (refusal.error === "invalid_client")
    return route !== "authorization" && secretSent ? "wrong_secret" : "invalid_client";
  if (refusal.error === "invalid_grant") return "invalid_grant";
  return undefined;
}

/** The client id a refused request named: known to the provider, or as sent (query, form, or Basic credentials). */
function namedClientId(ctx: KoaContextWithOIDC): string | undefined {
  const known = ctx.oidc?.client?.clientId;
  if (known) return known;
  const sent = ctx.oidc?.params?.client_id;
  if (typeof sent === "string") return sent;
  const basic = /^Basic\s+(\S+)$/i.exec(ctx.get("authorization"));
  if (!basic?.[1]) return undefined;
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  return decodeURIComponent(decoded.slice(0, Math.max(0, decoded.indexOf(":"))));
}

/** Whether the refused request carried a client secret (form or Basic credentials). */
function sentSecret(ctx: KoaContextWithOIDC): boolean {
  return typeof ctx.oidc?.params?.client_secret === "string" || /^Basic\s/i.test(ctx.get("authorization"));
}

/**
 * Notes the provider's refusals an application's integration caused (unregistered redirect URI, PKCE missing,
 * wrong secret, reused code) for its owners' health view. The note is written before the answer leaves, so a
 * developer who refreshes the page sees it. A suspended application is no client, so its calls note `suspended`.
 */
export function recordOidcFailures(provider: Provider, db: Db): void {
  const pending = new WeakMap<object, Promise<void>>();
  const note = (route: "authorization" | "token" | "device") => (ctx: KoaContextWithOIDC, refusal: Refusal) => {
    const reason = oidcFailureReason(route, refusal, sentSecret(ctx));
    const clientId = namedClientId(ctx);
    if (!reason || !clientId) return;
    const tried = ctx.oidc?.params?.redirect_uri;
    const address = reason === "redirect_uri_not_registered" && typeof tried === "string" ? tried : "";
    pending.set(
      ctx,
      findApplicationById(db, clientId).then(async (application) => {
        if (!application) return;
        const why = application.suspended_at ? "suspended" : reason;
        await recordIntegrationFailure(db, application.id, "oidc", why, address);
      }),
    );
  };
  provider.on("authorization.error", note("authorization"));
  provider.on("grant.error", note("token"));
  provider.on("device_authorization.error", note("device"));
  provider.use(async (ctx, next) => {
    await next();
    await pending.get(ctx);
  });
}
