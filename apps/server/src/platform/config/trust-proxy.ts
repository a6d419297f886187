import { isIP } from "node:net";
import { ConfigError } from "./error.ts";

/** Whose X-Forwarded-For is believed: the proxies' addresses/CIDRs, or a hop count (Fastify's trustProxy). */
export type TrustProxy = false | true | number | string[];

const proxyNames = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * A hop count ("1": the one proxy in front) or a comma-separated list of proxy addresses/CIDRs;
 * the client is then the right-most address in X-Forwarded-For that is not a trusted proxy.
 * A bare "true" would believe any client's own X-Forwarded-For, so production refuses it.
 */
export function parseTrustProxy(value: string | undefined, isProduction: boolean): TrustProxy {
  if (value === undefined || value === "false") return false;
  if (value === "true") {
    if (isProduction) {
      throw new ConfigError(
        "TRUST_PROXY: \"true\" believes any client's X-Forwarded-For; name the proxies' addresses/CIDRs or a hop count",
      );
    }
    return true;
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(`TRUST_PROXY: "${wrong}" is not an address, a CIDR or a hop count`);
  }
  return entries;
}
