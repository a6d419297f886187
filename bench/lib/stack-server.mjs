// The libraries the service is built on, loaded and used as the service uses them, with nothing of the service's own:
// the floor under issue 63's idle-RSS goal that the stack itself sets (memory.bench.ts). Fastify with its pino
// logger, @fastify/cookie, helmet's headers worked out once, prom-client's default and request metrics, oidc-provider
// (in-memory adapter) mounted under /oidc as mount.ts mounts it, zod validating an answer, and the database the
// service would hold: a pg pool under Kysely (DATABASE_URL), or PGlite with pg_trgm in DATA_DIR.
// Plain JavaScript, so that Node loads no TypeScript stripper into the process being measured; the packages load
// unbundled from node_modules, as in library-server.mjs (the service runs most of them bundled: bin/kpi-id-server.js).
import cookie from "@fastify/cookie";
import Fastify from "fastify";
import helmet from "helmet";
import { Kysely, PostgresDialect, sql } from "kysely";
import Provider from "oidc-provider";
import pg from "pg";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { z } from "zod";
import { collectWhenQuiet } from "./quiet-collect.mjs";

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? "warn" } });
await app.register(cookie, { secret: "the stack floor's cookie secret, not a real one" });

const headers = [];
helmet()({}, { setHeader: (name, value) => headers.push([name, String(value)]), removeHeader: () => {} }, () => {});
app.addHook("onRequest", (_request, reply, done) => {
  for (const [name, value] of headers) reply.raw.setHeader(name, value);
  reply.header("cache-control", "no-store");
  done();
});

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "stack_" });
const requestDuration = new Histogram({
  name: "stack_http_request_duration_seconds",
  help: "Request duration",
  labelNames: ["method", "route", "status_code"],
  registers: [registry],
});
app.addHook("onResponse", (request, reply, done) => {
  const route = request.routeOptions.url ?? "unmatched";
  requestDuration.observe(
    { method: request.method, route, status_code: String(reply.statusCode) },
    reply.elapsedTime / 1000,
  );
  done();
});

async function openStore() {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return () => sql`select 1 as one`.execute(db);
  }
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  const pglite = await PGlite.create({ dataDir: process.env.DATA_DIR, extensions: { pg_trgm } });
  await pglite.exec("create extension if not exists pg_trgm");
  return () => pglite.query("select 1 as one");
}
const query = await openStore();
// Connected and used once before the first request, as the service's start-up reads its database: the pool holds a
// connection and zod has parsed, whether or not /ready is asked.
await query();
const readyAnswer = z.object({ status: z.literal("ready") });
readyAnswer.parse({ status: "ready" });
app.get("/ready", async () => {
  await query();
  return readyAnswer.parse({ status: "ready" });
});

const provider = new Provider("http://127.0.0.1/oidc", {
  clients: [
    {
      client_id: "bench-client",
      client_secret: "bench-secret-for-the-stack-floor",
      redirect_uris: ["https://rp.example.edu/cb"],
    },
  ],
  features: { devInteractions: { enabled: false } },
});
const callback = provider.callback();
const handler = (request, reply) => {
  const raw = request.raw;
  raw.originalUrl = raw.url;
  raw.url = (raw.url ?? "/").slice("/oidc".length) || "/";
  reply.hijack();
  void callback(raw, reply.raw);
};
await app.register(
  async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    scope.all("/", handler);
    scope.all("/*", handler);
  },
  { prefix: "/oidc" },
);

// A second after the last request, the service's own collection (quiet-collect.mjs), as library-server.mjs does.
app.addHook("onResponse", (_request, _reply, done) => {
  collectWhenQuiet();
  done();
});

await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
