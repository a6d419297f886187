import { createServer, type IncomingHttpHeaders } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { MetricsAccess } from "../config/index.ts";
import { sameText } from "../crypto/tokens.ts";
import { AppError } from "../errors.ts";
import { createServiceMetrics, type GaugeSources, type ServiceMetrics } from "./metrics-registry.ts";

declare module "fastify" {
  interface FastifyInstance {
    metrics: ServiceMetrics;
  }
}

const loopbackAddresses = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** The bearer token, compared in constant time; the presented value is never logged (logging.ts redacts it). */
function bringsToken(headers: IncomingHttpHeaders, token: string): boolean {
  const header = headers.authorization;
  return typeof header === "string" && header.startsWith("Bearer ") && sameText(token, header.slice(7));
}

/**
 * With METRICS_TOKEN set, a scrape must bring it as a bearer token, from whatever address. Without one (outside
 * production only: there /metrics is then not served) only an agent on the same machine may read: the socket's
 * own peer is loopback and the request did not come through a proxy. X-Forwarded-For never decides.
 */
function mayScrape(request: FastifyRequest, access: MetricsAccess): boolean {
  if (access.token !== undefined) return bringsToken(request.headers, access.token);
  if (!access.loopbackOnly) return false;
  const proxied = request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && loopbackAddresses.has(request.socket.remoteAddress ?? "");
}

/**
 * METRICS_PORT: /metrics alone on its own port (and METRICS_HOST), opened when the service starts listening and
 * closed with it. A token, when set, is still required there.
 */
function listenOnMetricsPort(app: FastifyInstance, metrics: ServiceMetrics, access: MetricsAccess, port: number) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://metrics").pathname;
    if (request.method !== "GET" || path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    if (access.token !== undefined && !bringsToken(request.headers, access.token)) {
      response.writeHead(401, { "content-type": "text/plain" }).end("a bearer token is required\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, "metrics could not be collected");
        response.writeHead(500, { "content-type": "text/plain" }).end("metrics could not be collected\n");
      },
    );
  });
  app.addHook("onListen", async () => {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, access.host, () => resolve());
    });
    const address = server.address();
    const bound = typeof address === "object" && address ? address.port : port;
    app.log.info(`/metrics is served on ${access.host}:${bound} (METRICS_PORT), not on the service's port`);
  });
  app.addHook("onClose", async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}

/**
 * Request latency for every route and GET /metrics in Prometheus' text format. `sources.certificates` lists the
 * certificates the deployment depends on (the doctor's list, handed in by app.ts: it reads sign-in methods'
 * configuration, which sits above this platform module); `sources.pendingDiiaRequests` counts model/diia's rows.
 */
export function registerMetrics(app: FastifyInstance, sources: GaugeSources): void {
  const metrics = createServiceMetrics(app, sources);
  app.decorate("metrics", metrics);
  const access = app.config.metrics;

  app.addHook("onResponse", (request, reply, done) => {
    // The route pattern, never the raw URL: ids and query strings would make a series per request.
    const route = request.routeOptions.url ?? "unmatched";
    if (route !== "/metrics") {
      metrics.requestDuration.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });

  if (access.port !== undefined) {
    listenOnMetricsPort(app, metrics, access, access.port);
    return;
  }
  // Production without a token or a port: not served (404 like any unknown path); `doctor` warns.
  if (access.off) return;
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, access)) throw new AppError("auth.not_authenticated");
    reply.header("content-type", metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
