import { isIP } from "node:net";
import { AppError } from "../../platform/errors.ts";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An address a developer registers (ticket callback, redirect URI, icon, home page, privacy policy).
 * Stricter than the operator's check (apps/service.ts): the owner is anyone on campus, so the address
 * must read exactly as the browser will use it. Refused: wildcards, a name or password before the host
 * (https://kpi.ua@evil.example), a fragment, any scheme but https (javascript:, data:, custom schemes),
 * plain http except on this computer (a development address, below), and anything the URL parser
 * would rewrite (backslashes, spaces, an odd host) — what is stored is what is compared.
 *
 * Development addresses stay allowed in every state, live ones too (issue 60): RFC 8252 §7.3 for native
 * applications, and as Google allows for web applications. A page on the developer's own computer is
 * reached only from that computer, so an http answer there crosses no network.
 */
export function developerUriProblem(value: string): string | undefined {
  if (value.includes("*")) return "wildcard";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "not_absolute";
  }
  if (url.username || url.password) return "userinfo";
  if (value.includes("#")) return "fragment";
  if (url.href !== value && url.href !== `${value}/`) return "not_canonical";
  if (url.port === "0") return "port_zero";
  if (url.protocol === "https:") return httpsHostProblem(url.hostname);
  if (url.protocol !== "http:") return "scheme";
  return loopbackHosts.has(url.hostname) ? undefined : "http_not_loopback";
}

/** `http://localhost[:port]/…`, `http://127.0.0.1[:port]/…` or `http://[::1][:port]/…`: marked on the page as such. */
export function isDevelopmentAddress(value: string): boolean {
  const url = URL.parse(value);
  return url?.protocol === "http:" && loopbackHosts.has(url.hostname);
}

/**
 * An https address names a host on the internet (issue 56): not an IP literal (v4 or v6, which no certificate
 * of the campus's names covers and which points around DNS), not localhost or a name under it. This computer's
 * addresses stay for testing as plain http (`http://localhost:3000`, `http://127.0.0.1:3000`).
 */
function httpsHostProblem(hostname: string): string | undefined {
  const host = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (isIP(host) !== 0) return "ip_literal";
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "localhost";
  return undefined;
}

/** Every address valid, or 400 developer.invalid_uri (insecure_uri for plain http elsewhere) naming the field, line and address. */
export function checkDeveloperUris(fields: Record<string, string[]>): void {
  for (const [field, values] of Object.entries(fields)) {
    for (const [index, value] of values.entries()) {
      const problem = developerUriProblem(value);
      if (!problem) continue;
      const code = problem === "http_not_loopback" ? "developer.insecure_uri" : "developer.invalid_uri";
      // The address itself rides in the detail, so the page can say which one of several is refused.
      throw new AppError(code, {
        details: [{ path: `body.${field}.${index}`, message: `${problem}: ${value.slice(0, 300)}` }],
      });
    }
  }
}
