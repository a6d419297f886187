import type * as OpenIdClient from "openid-client";
import type { GoogleConfig } from "../../platform/config/index.ts";
import { AppError, hasCode } from "../../platform/errors.ts";
import { loadOnce } from "../../platform/load-once.ts";
import type { PendingSignIn } from "./state.ts";

// openid-client (with oauth4webapi, and Node's fetch under it) comes with the first Google sign-in: an
// instance without Google, or before anyone signs in with it, does not hold it (issue 41's idle RSS).
const loadOpenIdClient = loadOnce(() => import("openid-client"));

// Discovery and the token call must not hold a request open for long.
const REQUEST_TIMEOUT_SECONDS = 5;

export interface GoogleIdentity {
  subject: string;
  email?: string;
  emailVerified: boolean;
  /** The Google Workspace domain of the account (`hd`); absent for personal Google accounts. */
  hostedDomain?: string;
  name?: string;
}

export interface AuthorizationRequest {
  url: URL;
  pending: Omit<PendingSignIn, "expiresAt">;
}

/**
 * openid-client trusts TLS for ID tokens from the token endpoint unless told
 * otherwise; we also verify their signature against the provider's JWKS, so a
 * token is never taken on the word of the connection alone. A plain http
 * issuer is only the sandbox stand-in on this machine (production refuses
 * http at config time).
 */
function discoveryOptions(oidc: typeof OpenIdClient, issuer: URL): OpenIdClient.DiscoveryRequestOptions {
  const execute = [oidc.enableNonRepudiationChecks];
  if (issuer.protocol === "http:") execute.push(oidc.allowInsecureRequests);
  return { timeout: REQUEST_TIMEOUT_SECONDS, execute };
}

function identityFrom(claims: OpenIdClient.IDToken): GoogleIdentity {
  return {
    subject: claims.sub,
    email: typeof claims.email === "string" ? claims.email : undefined,
    // Google has sent both the boolean and the string form over the years.
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    hostedDomain: typeof claims.hd === "string" ? claims.hd.toLowerCase() : undefined,
    name: typeof claims.name === "string" ? claims.name : undefined,
  };
}

/**
 * Google's OpenID provider through openid-client: discovery is read on first
 * use and kept (a failed attempt is not kept, so the next request retries).
 */
export class GoogleOpenIdClient {
  readonly #settings: GoogleConfig;
  readonly #redirectUri: string;
  #configuration: Promise<OpenIdClient.Configuration> | undefined;

  constructor(settings: GoogleConfig, redirectUri: string) {
    this.#settings = settings;
    this.#redirectUri = redirectUri;
  }

  #discover(): Promise<OpenIdClient.Configuration> {
    if (!this.#configuration) {
      const issuer = new URL(this.#settings.issuer);
      const { clientId, clientSecret } = this.#settings;
      this.#configuration = loadOpenIdClient()
        .then((oidc) => oidc.discovery(issuer, clientId, clientSecret, undefined, discoveryOptions(oidc, issuer)))
        .then((configuration) => {
          configuration.timeout = REQUEST_TIMEOUT_SECONDS;
          return configuration;
        });
      this.#configuration.catch(() => {
        this.#configuration = undefined;
      });
    }
    return this.#configuration.catch((error: unknown) => {
      throw new AppError("google.not_configured", { retryAfterSeconds: 30, cause: error });
    });
  }

  /** The university's Workspace domains, whose accounts link themselves by address (GOOGLE_HOSTED_DOMAINS). */
  get hostedDomains(): readonly string[] {
    return this.#settings.hostedDomains;
  }

  /** Authorization code with PKCE (S256), nonce and state. */
  async authorizationRequest(state: string): Promise<AuthorizationRequest> {
    const configuration = await this.#discover();
    const oidc = await loadOpenIdClient();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#redirectUri,
      response_type: "code",
      scope: "openid email profile",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
    return { url, pending: { state, codeVerifier, nonce } };
  }

  /**
   * Exchanges the code and validates the ID token: signature, issuer,
   * audience, expiry and our nonce (openid-client checks them all).
   */
  async identityFor(code: string, pending: PendingSignIn): Promise<GoogleIdentity> {
    const configuration = await this.#discover();
    const oidc = await loadOpenIdClient();
    const callback = new URL(this.#redirectUri);
    callback.searchParams.set("code", code);
    callback.searchParams.set("state", pending.state);
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedNonce: pending.nonce,
        expectedState: pending.state,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new AppError("google.failed", { reason: "google.no_id_token" });
      return identityFrom(claims);
    } catch (error) {
      if (hasCode(error, "google.failed")) throw error;
      throw new AppError("google.failed", { reason: failureReason(oidc, error), cause: error });
    }
  }
}

type Cause = { claim?: unknown; cause?: Cause } | undefined;

/** oauth4webapi names the failing claim in its error's cause, which openid-client wraps once more. */
function failedClaim(cause: unknown): string | undefined {
  const outer = cause as Cause;
  const claim = outer?.claim ?? outer?.cause?.claim;
  return typeof claim === "string" ? claim : undefined;
}

/** A short, secret-free word for the audit row. */
function failureReason(oidc: typeof OpenIdClient, error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return `google.token_${error.error}`.slice(0, 64);
  if (error instanceof oidc.ClientError) {
    // ID token checks name the claim that failed (nonce, aud, iss, exp…).
    const claim = failedClaim(error.cause);
    if (claim) return `google.id_token_${claim}`.slice(0, 64);
    return `google.${(error.code ?? "client_error").toLowerCase()}`.slice(0, 64);
  }
  return "google.unreachable";
}
