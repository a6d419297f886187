// A child process for bench/memory.bench.ts: Fastify alone answering one route on PORT, the baseline
// for a Node.js web server's start-up time and memory on this machine.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/ready", async () => ({ status: "ready" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
