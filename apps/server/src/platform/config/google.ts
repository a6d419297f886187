import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

export interface GoogleConfig {
  /** The OpenID provider: Google's, or the sandbox stand-in's. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The university's Google Workspace domains. A Google account links itself to the person holding
   * its e-mail address only when both its `hd` claim and its address are in one of these; any other
   * account signs in only once linked explicitly (`user link-google`).
   */
  hostedDomains: string[];
}

export function readGoogleConfig(environment: Environment): GoogleConfig | undefined {
  const { GOOGLE_ISSUER: issuer, GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret } = environment;
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined) throw new ConfigError("GOOGLE_CLIENT_ID: is required when GOOGLE_CLIENT_SECRET is set");
  if (clientSecret === undefined)
    throw new ConfigError("GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set");
  return { issuer, clientId, clientSecret, hostedDomains: environment.GOOGLE_HOSTED_DOMAINS };
}
