import { oidcInteractionPath } from "@kpi-id/contracts";
import type { Kysely } from "kysely";
import Provider, { type Configuration, errors, interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { isUuid } from "../../model/apps/queries.ts";
import { oidcScopes } from "../../model/apps/settings.ts";
import { matchingSecret, noteSecretUse } from "../../model/developers/secrets.ts";
import { deriveKey, keyActivationDelaySeconds } from "../../model/oidc/keys.ts";
import type { ContinueTo } from "../../model/sessions/continue-to.ts";
import { refedsMfa, refedsSfa } from "../../model/sessions/strength.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Database } from "../../platform/db/schema.ts";
import { applicationAccessPrompt } from "./access.ts";
import { createAdapterClass } from "./adapter.ts";
import { auditAuthorizations } from "./audit.ts";
import { createFindAccount, scopeClaims } from "./claims.ts";
import { deviceFlowFeature, sendDeviceLinksToDevicePage } from "./device-flow.ts";
import { guardDeviceFlow } from "./device-guard.ts";
import { ownerAwareRenderError } from "./error-page.ts";
import { resumesByItself } from "./interaction-result.ts";
import { kpiSessionOf, mirrorKpiSession } from "./kpi-session.ts";
import { logoutSource, postLogoutSuccessSource, renderError } from "./pages.ts";
import { parsedClientsFor } from "./parsed-clients.ts";
import type { ProviderOptions } from "./provider-options.ts";
import { rememberEachRequest } from "./request-memory.ts";
import { countProviderRequests } from "./requests-in-flight.ts";
import { loadSessionGrant } from "./session-grant.ts";
import { needsStepUp } from "./step-up.ts";

// Where the provider's parts (device-flow.ts, device-guard.ts) take their options from, without importing this file.
export type { ProviderOptions } from "./provider-options.ts";

export const oidcPrefix = "/oidc";
export const interactionPath = oidcInteractionPath;

/**
 * Where a sign-in paused on an interaction continues (kept in the continue cookie): the provider's own `/auth/{uid}`
 * when it decides the rest by itself once someone is signed in (`resume`), else our interaction route.
 */
export function oidcContinueTo(uid: string, resume: true | undefined): ContinueTo {
  const path = `${resume ? `${oidcPrefix}/auth` : interactionPath}/${encodeURIComponent(uid)}`;
  return { kind: "protocol", protocol: "oidc", waiting: uid, path };
}

/** Lifetimes in seconds. A retired signing key stays published for the longest-lived signed token. */
export const oidcTtl = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  IdToken: 3600,
  Interaction: 1800,
  Session: 14 * 24 * 3600,
  Grant: 30 * 24 * 3600,
  RefreshToken: 30 * 24 * 3600,
};
// A retired key may sign until its successor activates and every instance has reloaded (≤ 3 min).
export const signingKeyRetentionSeconds = oidcTtl.IdToken + keyActivationDelaySeconds + 180;

/**
 * The provider's own session only mirrors ours (kpi-session.ts): when there is no KPI ID
 * session, or it belongs to someone else, the login prompt is due again (with prompt=none
 * that is `login_required`).
 */
function loginPolicy(options: ProviderOptions) {
  const { Check, base } = interactionPolicy;
  const policy = base();
  policy.get("login")?.checks.push(
    new Check(
      "kpi_id_session",
      "there is no KPI ID session for the signed-in person",
      "login_required",
      async (ctx) => {
        const session = await kpiSessionOf(ctx, options);
        return session && session.userId === ctx.oidc.session?.accountId
          ? Check.NO_NEED_TO_PROMPT
          : Check.REQUEST_PROMPT;
      },
    ),
  );
  policy.get("login")?.checks.push(
    new Check(
      "kpi_id_mfa",
      "the application needs a multi-factor sign-in and the KPI ID session has one factor",
      "login_required",
      async (ctx) => {
        const session = await kpiSessionOf(ctx, options);
        if (!session) return Check.NO_NEED_TO_PROMPT;
        const clientId = ctx.oidc.client?.clientId;
        const application =
          clientId && isUuid(clientId)
            ? await cachedApplicationById(options.caches.applications, options.db, clientId)
            : undefined;
        return needsStepUp(session, application, ctx.oidc.params?.acr_values)
          ? Check.REQUEST_PROMPT
          : Check.NO_NEED_TO_PROMPT;
      },
    ),
  );
  policy.add(applicationAccessPrompt(options.db), 1);
  return policy;
}

/**
 * Where the provider sends the browser for an interaction: our route, with the application's `ui_locales` and
 * whether the interaction is one the provider decides by itself once someone is signed in (`resume=1`,
 * interaction-routes.ts), so that a browser with no KPI ID session goes on to the sign-in screen, and after it
 * straight back to the provider, without the route reading the interaction.
 */
function interactionUrl(interaction: Parameters<typeof resumesByItself>[0] & { uid: string }): string {
  const path = `${interactionPath}/${interaction.uid}`;
  const query = new URLSearchParams();
  const locales = interaction.params.ui_locales;
  if (typeof locales === "string" && locales) query.set("ui_locales", locales);
  if (resumesByItself(interaction)) query.set("resume", "1");
  return query.size ? `${path}?${query}` : path;
}

/**
 * An application may introspect only the tokens issued to it (RFC 7662 §2.2 lets the
 * server answer `active: false` for others), and only while the person still has access.
 */
function introspectionAllowed(db: Kysely<Database>) {
  return async (
    _ctx: KoaContextWithOIDC,
    client: { clientId: string },
    token: { clientId?: string; accountId?: string },
  ) =>
    token.clientId === client.clientId &&
    (!token.accountId || (await hasApplicationAccess(db, token.accountId, client.clientId)));
}

function cookieOptions(config: Config, sameSite: "lax" | "none") {
  return { httpOnly: true, sameSite, secure: config.secureCookies, signed: true };
}

// The provider's session cookie is SameSite=None so that an application may POST to the
// authorization and end-session endpoints (OIDC Core §3.1.2.1, RP-Initiated Logout §2);
// over plain http mount.ts sends it as Lax (see laxOverPlainHttp).

/** Exactly the client authentication methods an application can be registered with (clients.ts). */
export const clientAuthMethods = ["client_secret_basic", "client_secret_post", "none"] as const;

export function providerConfiguration(options: ProviderOptions): Configuration {
  const { config, db, keys } = options;
  const findApplication = (id: string) => cachedApplicationById(options.caches.applications, db, id);
  const clients = parsedClientsFor(options, findApplication);
  return {
    adapter: createAdapterClass(
      db,
      options.clock,
      clients.findApplication,
      config.sessionSecrets,
      options.caches.accessTokens,
    ),
    findAccount: createFindAccount(db, config.saml.scope, options.caches.accounts),
    loadExistingGrant: loadSessionGrant(db, findApplication),
    claims: scopeClaims,
    scopes: [...oidcScopes],
    jwks: { keys: keys as unknown as NonNullable<Configuration["jwks"]>["keys"] },
    cookies: {
      // oidc-provider signs with the first key and accepts every one: SESSION_SECRET's ring, newest first.
      keys: config.sessionSecrets.map((key) => deriveKey(key, "oidc cookies").toString("base64url")),
      long: cookieOptions(config, "none"),
      short: cookieOptions(config, "lax"),
    },
    // Browsers may call the token and userinfo endpoints from an application's own pages.
    clientBasedCORS: (_ctx, origin, client) =>
      (client.redirectUris ?? []).some((uri) => {
        try {
          return new URL(uri).origin === origin;
        } catch {
          return false;
        }
      }),
    clientAuthMethods: [...clientAuthMethods],
    enableHttpPostMethods: true,
    responseTypes: ["code"],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    ttl: { ...oidcTtl, DeviceCode: config.deviceCodeTtlSeconds },
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: true, allowedPolicy: introspectionAllowed(db) },
      // Revoking another application's token answers 200 as RFC 7009 asks, and changes nothing.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutSource(findApplication), postLogoutSuccessSource },
      deviceFlow: deviceFlowFeature(options),
    },
    // Discovery's acr_values_supported; the ID token's acr says which the session achieved.
    acrValues: [refedsSfa, refedsMfa],
    interactions: {
      url: (_ctx, interaction) => interactionUrl(interaction),
      policy: loginPolicy(options),
    },
    renderError: ownerAwareRenderError(options),
    fetch: outgoingFetch(config),
    enabledJWA: { idTokenSigningAlgValues: ["RS256"] },
  };
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Back-channel logout calls the applications' servers. The library refuses
 * special-use addresses (SSRF); outside production, loopback applications
 * (the demo site, tests) are allowed, as they are for redirect URIs.
 */
function outgoingFetch(config: Config): NonNullable<Configuration["fetch"]> {
  return (url, options) => {
    if (!config.isProduction && loopbackHosts.has(new URL(url instanceof Request ? url.url : url).hostname)) {
      const { dispatcher: _ssrfGuard, ...rest } = options as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, rest);
    }
    return globalThis.fetch(url, options);
  };
}

/**
 * Our secrets are stored as SHA-256 hashes, so compare the hash of what the client presents: against the current
 * secret, or the one it replaced while their overlap lasts (issue 60), and note the use for the developers' page.
 */
function hashedSecretComparison(options: ProviderOptions) {
  return async function compareHashedSecret(this: { clientId: string }, presented: unknown): Promise<boolean> {
    if (typeof presented !== "string") return false;
    const application = await cachedApplicationById(options.caches.applications, options.db, this.clientId);
    const now = options.clock();
    const matched = matchingSecret(application, presented, now);
    if (!matched || !application) return false;
    await noteSecretUse(options.db, application.id, matched, now);
    return true;
  };
}

export function createProvider(options: ProviderOptions): Provider {
  const { config } = options;
  const provider = new Provider(`${config.publicUrl}${oidcPrefix}`, providerConfiguration(options));
  parsedClientsFor(options, (id) => cachedApplicationById(options.caches.applications, options.db, id)).install(
    provider,
  );
  // The forwarded headers it reads are set from PUBLIC_URL by mount.ts, never the client's.
  provider.proxy = true;
  const compareClientSecret = hashedSecretComparison(options);
  (provider.Client.prototype as unknown as { compareClientSecret: typeof compareClientSecret }).compareClientSecret =
    compareClientSecret;
  mirrorKpiSession(provider, options);
  provider.use(countProviderRequests);
  // First, so that every middleware below (the audit's among them) writes into the request's one statement.
  provider.use(rememberEachRequest(options.db, options.caches.accounts));
  provider.use(answerLateRefusals);
  sendDeviceLinksToDevicePage(provider, config);
  guardDeviceFlow(provider, options);
  provider.use(auditAuthorizations(provider, options.audit));
  return provider;
}

/**
 * The library saves its session once more after a route's own error handler (ensureSessionSave);
 * when that save is refused (a parameter kept in the session cannot be stored: adapter.ts), the
 * refusal would reach Koa as bare text. It gets the same answer as any other: the error page,
 * or JSON for a client that asks for it. (The route's handler has already logged it.)
 */
async function answerLateRefusals(ctx: KoaContextWithOIDC, next: () => Promise<unknown>) {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof errors.OIDCProviderError) || error.statusCode >= 500) throw error;
    const out = { error: error.error, error_description: error.error_description };
    ctx.status = error.statusCode;
    if (ctx.accepts("json", "html") === "html") await renderError(ctx, out);
    else ctx.body = out;
  }
}
