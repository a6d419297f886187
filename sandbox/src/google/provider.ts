import Provider, { type Configuration, interactionPolicy, type JWK, type KoaContextWithOIDC } from "oidc-provider";
import { findGoogleAccount } from "./accounts.ts";
import { newCookieKeys } from "./keys.ts";
import { MemoryAdapter } from "./memory-adapter.ts";
import { problemPage } from "./pages.ts";

export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface GoogleProviderOptions {
  issuer: string;
  client: RegisteredClient;
  signingKey: JWK;
}

/**
 * The login prompt always asks, even with a live provider session, so a
 * visitor can pick another demo account every time (Google's account chooser).
 * After the choice is submitted the result carries a login and the check passes.
 */
function alwaysChooseAccount(): interactionPolicy.Prompt[] {
  const { base, Check } = interactionPolicy;
  const policy = base();
  policy
    .get("login")
    ?.checks.add(
      new Check("account_choice", "the End-User picks a demo account", (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

async function findAccount(_ctx: KoaContextWithOIDC, sub: string) {
  const account = findGoogleAccount(sub);
  if (!account) return undefined;
  const { note: _note, ...claims } = account;
  return { accountId: account.sub, claims: async () => claims };
}

function configuration({ client, signingKey }: GoogleProviderOptions): Configuration {
  return {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: "KPI ID",
        redirect_uris: client.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    adapter: MemoryAdapter,
    jwks: { keys: [signingKey] },
    cookies: { keys: newCookieKeys() },
    findAccount,
    claims: {
      // Google sends `hd` for Workspace accounts whatever the scopes.
      openid: ["sub", "hd"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
    },
    // Google puts the profile and e-mail claims in the ID token itself.
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy: alwaysChooseAccount() },
    features: { devInteractions: { enabled: false } },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = problemPage(String(out.error_description ?? out.error ?? "The request was refused."));
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  };
}

/**
 * Google does not advertise RFC 9207 (`iss` in the authorization response), so
 * its clients — ours included — see only `code` and `state`. The stand-in's
 * discovery document says the same.
 */
function actLikeGoogleDiscovery(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === "/.well-known/openid-configuration" && ctx.body && typeof ctx.body === "object") {
      delete (ctx.body as Record<string, unknown>).authorization_response_iss_parameter_supported;
    }
  });
}

export function createGoogleProvider(options: GoogleProviderOptions): Provider {
  const provider = new Provider(options.issuer, configuration(options));
  actLikeGoogleDiscovery(provider);
  return provider;
}
