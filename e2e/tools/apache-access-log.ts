import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * An access log for the suite's Apache counterparts (method, path with query, status; one request a line), so a
 * spec can count what KPI ID sent them: a back-channel logout token, a SAML LogoutRequest, a CAS single logout.
 * mod_log_config is built into Debian's apache2; the log costs a line per request.
 */
export function accessLogDirectives(dir: string): string[] {
  return ['LogFormat "%m %U%q %>s" requests', `CustomLog "${accessLogFile(dir)}" requests`];
}

export function accessLogFile(dir: string): string {
  return join(dir, "access.log");
}

/** The requests in the log so far, one "METHOD /path?query STATUS" each. */
export function loggedRequests(dir: string): string[] {
  const file = accessLogFile(dir);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}
