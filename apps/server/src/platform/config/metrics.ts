import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";
import { describeSecretProblem, secretProblem } from "./secrets.ts";

/** Who may read GET /metrics (platform/http/metrics-endpoint.ts decides by this). */
export interface MetricsAccess {
  /** A scrape brings it as a bearer token, from whatever address. */
  token?: string;
  /** /metrics is served on this port only (on `host`), never on the service's own port. */
  port?: number;
  host: string;
  /**
   * Without a token or a port: development and tests answer a loopback peer that came through no proxy;
   * production answers nobody (404), since a proxy on the same host that adds no header looks loopback too.
   */
  loopbackOnly: boolean;
  /** Production with neither a token nor a port: /metrics is not served at all (`doctor` says so). */
  off: boolean;
}

/**
 * METRICS_TOKEN, METRICS_PORT and METRICS_HOST. A token is checked like SESSION_SECRET: too short is refused
 * everywhere, an example or repetitive value in production; the service does not start with a weak one.
 */
export function readMetricsAccess(environment: Environment, isProduction: boolean): MetricsAccess {
  const token = environment.METRICS_TOKEN;
  if (token !== undefined) {
    const problem = secretProblem(token);
    if (problem && (isProduction || problem === "too_short")) {
      throw new ConfigError(`METRICS_TOKEN: ${describeSecretProblem(problem)}`);
    }
  }
  const port = environment.METRICS_PORT;
  if (port !== undefined && port === environment.PORT && port !== 0) {
    throw new ConfigError("METRICS_PORT: must differ from PORT (it is the separate port /metrics moves to)");
  }
  const unguarded = token === undefined && port === undefined;
  return {
    token,
    port,
    host: environment.METRICS_HOST,
    loopbackOnly: unguarded && !isProduction,
    off: unguarded && isProduction,
  };
}
