import cookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import type Provider from "oidc-provider";
import type { Config } from "../../src/platform/config/index.ts";
import { createPasswordHasher } from "../../src/platform/crypto/password.ts";
import { registerJsonParser } from "../../src/platform/http/body-parsers.ts";
import { registerMetrics } from "../../src/platform/http/metrics-endpoint.ts";
import { registerSecurity } from "../../src/platform/http/security.ts";
import { mountProvider } from "../../src/protocols/oidc/mount.ts";

/**
 * Any oidc-provider instance served through the service's own HTTP stack and nothing else: Fastify with the
 * service's cookie and JSON parsing, security headers, CSRF check and request metrics, the provider mounted under /oidc by
 * the service's mount.ts; no database, no caches, no sessions. The bench's userinfo floor of that stack (issue 63):
 * what every answer of the service must pass through before the provider and its storage are reached.
 */
export async function serveThroughServiceStack(provider: Provider, config: Config): Promise<FastifyInstance> {
  const app = await serviceStack(config);
  await mountProvider(app, { provider });
  return app;
}

/** The service's HTTP stack alone (see above), for a bench's own routes: the login's floor (bench/lib/login-skeleton.ts). */
export async function serviceStack(config: Config): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 200 } });
  app.decorate("config", config);
  // The metrics read the password checks' line off the hasher, as in the service (app.ts).
  app.decorate("passwordHasher", createPasswordHasher(config.argon2));
  await app.register(cookie, { secret: [...config.sessionSecrets] });
  registerJsonParser(app);
  await registerSecurity(app, config);
  registerMetrics(app, { certificates: async () => [], pendingDiiaRequests: async () => 0 });
  return app;
}
