import { isIP } from "node:net";
import type { ApplicationLifecycle } from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An address a developer registers (ticket callback, redirect URI, icon, home page, privacy policy).
 * Stricter than the operator's check (apps/service.ts): the owner is anyone on campus, so the address
 * must read exactly as the browser will use it. Refused: wildcards, a name or password before the host
 * (https://kpi.ua@evil.example), a fragment, any scheme but https (javascript:, data:, custom schemes),
 * plain http except on this computer while the application is in testing (not under review), and anything the URL parser
 * would rewrite (backslashes, spaces, an odd host) — what is stored is what is compared.
 */
export function developerUriProblem(value: string, lifecycle: ApplicationLifecycle): string | undefined {
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
  if (url.protocol !== "http:" || !loopbackHosts.has(url.hostname)) return "scheme";
  // Only while testing (or back to it after a rejection): a request under review is what goes live.
  return lifecycle === "testing" || lifecycle === "rejected" ? undefined : "http_on_live";
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

/** Every address valid for an application in this state, or 400 developer.invalid_uri / developer.insecure_uri. */
export function checkDeveloperUris(fields: Record<string, string[]>, lifecycle: ApplicationLifecycle): void {
  for (const [field, values] of Object.entries(fields)) {
    for (const [index, value] of values.entries()) {
      const problem = developerUriProblem(value, lifecycle);
      if (!problem) continue;
      const code = problem === "http_on_live" ? "developer.insecure_uri" : "developer.invalid_uri";
      throw new AppError(code, { details: [{ path: `body.${field}.${index}`, message: problem }] });
    }
  }
}
