import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import type { Comparison } from "./lib/types.ts";

export const title = "Diia check-request under 10,000 waiting sign-ins polled every 3 s";

const pendingRequests = 10_000;
const pollIntervalSeconds = 3;
// Every waiting browser asks once per interval: the steady request rate the service must carry.
const targetRate = Math.round(pendingRequests / pollIntervalSeconds);
const loadSeconds = 12;
const connections = 50;

interface PollServer {
  url: string;
  requestIds: string[];
  /** The binding cookie the waiting browsers present (check-request answers only them). */
  cookie: string;
  databaseKind: string;
  stop(): Promise<void>;
}

/** The service in its own process, so the memory it reports is the server's alone. */
async function startPollServer(): Promise<PollServer> {
  const child = spawn(
    process.execPath,
    [new URL("./lib/diia-poll-server.ts", import.meta.url).pathname, String(pendingRequests)],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`poll server exited with ${code}`)));
  });
  const ready = JSON.parse(first) as Omit<PollServer, "stop">;
  return {
    ...ready,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}

async function serverMemoryMb(url: string): Promise<{ rss: number; heapUsed: number }> {
  const memory = (await (await fetch(`${url}/__bench/memory`)).json()) as { rss: number; heapUsed: number };
  return { rss: memory.rss / 2 ** 20, heapUsed: memory.heapUsed / 2 ** 20 };
}

/** Open-loop load at the polling rate; `path` gives each request its own client's URL. */
async function pollingLoad(url: string, path: () => string, cookie: string) {
  const result = await autocannon({
    url,
    connections,
    duration: loadSeconds,
    overallRate: targetRate,
    headers: { cookie },
    requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rate: result.requests.average,
    failed: result.non2xx + result.errors,
  };
}

export async function run(): Promise<Comparison[]> {
  const server = await startPollServer();
  try {
    const idle = await serverMemoryMb(server.url);
    // Baseline: the cheapest database answer the same server gives (GET /ready pings the database).
    const baseline = await pollingLoad(server.url, () => "/ready", server.cookie);
    let next = 0;
    const subject = await pollingLoad(
      server.url,
      () => {
        const id = server.requestIds[next++ % server.requestIds.length];
        return `/api/diia/check-request?requestId=${id}`;
      },
      server.cookie,
    );
    const loaded = await serverMemoryMb(server.url);
    if (subject.failed > 0) console.log(`  warning: ${subject.failed} check-request calls failed`);
    const method =
      `${targetRate} req/s target over ${connections} connections for ${loadSeconds} s (achieved: ` +
      `check-request ${subject.rate.toFixed(0)}/s, /ready ${baseline.rate.toFixed(0)}/s), ` +
      `${pendingRequests} pending rows, ${server.databaseKind}, server in its own process`;
    return [
      {
        subject: { label: "check-request achieved", value: subject.rate, unit: "req/s" },
        baseline: { label: "offered (10,000 pending, each polled every 3 s)", value: targetRate, unit: "req/s" },
        method,
      },
      {
        subject: { label: "check-request latency p50", value: subject.p50, unit: "ms" },
        baseline: { label: "GET /ready (database ping) latency p50, same rate", value: baseline.p50, unit: "ms" },
        method,
      },
      {
        subject: { label: "check-request latency p99", value: subject.p99, unit: "ms" },
        baseline: { label: "GET /ready (database ping) latency p99, same rate", value: baseline.p99, unit: "ms" },
        method,
      },
      {
        subject: { label: "server RSS after the polling load", value: loaded.rss, unit: "MiB" },
        baseline: { label: `server RSS idle with ${pendingRequests} pending requests`, value: idle.rss, unit: "MiB" },
        method: `process.memoryUsage() of the server process; heap used ${idle.heapUsed.toFixed(0)} → ${loaded.heapUsed.toFixed(0)} MiB`,
      },
    ];
  } finally {
    await server.stop();
  }
}
