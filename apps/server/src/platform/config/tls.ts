import { bankIdAddresses } from "./bankid.ts";
import { listOfCrlSources } from "./diia.ts";
import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

/**
 * The addresses the service is served at or calls with secrets (the acquirer token, the client
 * secret, people's cookies). A loopback address never leaves the machine, so it may stay http.
 */
const addressesNeedingTls = ["PUBLIC_URL", "DIIA_BASE_URL", "GOOGLE_ISSUER"] as const satisfies (keyof Environment)[];

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Every configured address that must use TLS, with the variable that names it. */
function addressesToCheck(environment: Environment): [string, string][] {
  const single = addressesNeedingTls.flatMap((variable): [string, string][] => {
    const value = environment[variable];
    return value === undefined ? [] : [[variable, value]];
  });
  return [...single, ...bankIdAddresses(environment)];
}

/**
 * DIIA_CRLS mixes file paths and URLs. The qualified CAs publish their CRLs over plain http, and a CRL
 * carries no secret and is signed by its CA (checked before it counts), so http is allowed for them;
 * any other scheme is a mistake.
 */
export function requireCrlUrlsFetchable(environment: Environment): void {
  for (const source of listOfCrlSources(environment.DIIA_CRLS)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !/^https?:\/\//i.test(source)) {
      throw new ConfigError("DIIA_CRLS: a URL must be http:// or https://");
    }
  }
  // OCSP answers are signed by the CA (or its delegated OCSP signer) like CRLs, and published over http.
  for (const responder of listOfCrlSources(environment.DIIA_OCSP)) {
    if (responder !== "aia" && !/^https?:\/\/[^/\s]+/i.test(responder)) {
      throw new ConfigError('DIIA_OCSP: each entry must be an http:// or https:// URL, or "aia"');
    }
  }
}

export function requireTls(environment: Environment): void {
  for (const [variable, value] of addressesToCheck(environment)) {
    const url = new URL(value);
    if (url.protocol === "https:" || loopbackHosts.has(url.hostname)) continue;
    throw new ConfigError(`${variable}: must be an https:// address in production`);
  }
}
