import type { FastifyBaseLogger } from "fastify";
import type Provider from "oidc-provider";
import type { errors, KoaContextWithOIDC } from "oidc-provider";

// The provider's error events of the endpoints it serves (lib/helpers/initialize_app.js).
const refusalEvents = [
  "authorization.error",
  "grant.error",
  "userinfo.error",
  "introspection.error",
  "revocation.error",
  "end_session.error",
  "end_session_confirm.error",
  "end_session_success.error",
  "discovery.error",
  "jwks.error",
] as const;

/**
 * The provider answers a refused request itself (an OAuth error code, a 4xx); these reach the
 * log so an operator sees what applications get wrong. Only the route, the error code, its
 * fixed description and the client id are written: never a parameter's value (codes, tokens).
 * Its 500s are logged apart (runtime.ts).
 */
export function logRefusals(provider: Provider, log: FastifyBaseLogger): void {
  for (const event of refusalEvents) {
    // Every one of these events has the same listener signature; the types list them one by one.
    provider.on(event as "grant.error", (ctx: KoaContextWithOIDC, refusal: errors.OIDCProviderError) => {
      log.info(
        {
          oidcRoute: ctx.oidc?.route ?? event.replace(/\.error$/, ""),
          error: refusal.error,
          description: refusal.error_description,
          clientId: ctx.oidc?.client?.clientId,
        },
        "oidc: request refused",
      );
    });
  }
  // An application's back-channel logout endpoint did not take its logout token.
  provider.on("backchannel.error", (_ctx: KoaContextWithOIDC, error: unknown, client: { clientId?: string }) => {
    log.warn({ err: error, clientId: client?.clientId }, "oidc: back-channel logout not delivered");
  });
}
