/**
 * The relying party the OpenID Connect benchmarks play: one confidential client, PKCE with a fixed verifier. The
 * flow itself is the one the statement counts drive (apps/server/test/support/oidc-code-flow.ts).
 */
export {
  type ClientCredentials as Client,
  pkceChallenge as challenge,
  pkceVerifier as verifier,
  type TokenSet,
  tokenRequest,
} from "@kpi-id/server/testing";

export const redirectUri = "https://rp.example.edu/callback";
