import type { FastifyInstance, FastifyRequest } from "fastify";
import { sameText } from "../crypto/tokens.ts";
import { AppError } from "../errors.ts";
import { type CertificateSource, createServiceMetrics, type ServiceMetrics } from "./registry.ts";

declare module "fastify" {
  interface FastifyInstance {
    metrics: ServiceMetrics;
  }
}

const loopbackAddresses = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * With METRICS_TOKEN set, a scrape must bring it as a bearer token; without one only an
 * agent on the same machine may read: the socket's own peer is loopback and the request
 * did not come through a proxy. X-Forwarded-For never decides (anyone can write it).
 */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token === undefined) {
    const proxied = request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
    return !proxied && loopbackAddresses.has(request.socket.remoteAddress ?? "");
  }
  const header = request.headers.authorization;
  return typeof header === "string" && header.startsWith("Bearer ") && sameText(token, header.slice(7));
}

/**
 * Request latency for every route and GET /metrics in Prometheus' text format. `certificates` lists the
 * certificates the deployment depends on (the doctor's list, handed in by app.ts: it reads sign-in methods'
 * configuration, which sits above this platform module).
 */
export function registerMetrics(app: FastifyInstance, certificates: CertificateSource): void {
  const metrics = createServiceMetrics(app, certificates);
  app.decorate("metrics", metrics);

  app.addHook("onResponse", async (request, reply) => {
    // The route pattern, never the raw URL: ids and query strings would make a series per request.
    const route = request.routeOptions.url ?? "unmatched";
    if (route === "/metrics") return;
    metrics.requestDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, app.config.metricsToken)) throw new AppError("auth.not_authenticated");
    reply.header("content-type", metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
