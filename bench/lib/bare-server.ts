// A child process for bench/memory.bench.ts: Fastify alone answering one route on PORT, the baseline
// for a Node.js web server's start-up time and memory on this machine. Its logger is the service's
// (Fastify's pino at LOG_LEVEL), so the floor carries what any Fastify service with logging carries.
import Fastify from "fastify";

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? "warn" } });
app.get("/ready", async () => ({ status: "ready" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
