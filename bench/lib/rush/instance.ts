import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { productionEntry, productionEnvironment, productionNodeFlags } from "@kpi-id/server/production-process";
import { waitUntilAnswering } from "../child-server.ts";

// KPI ID as production runs it, pinned to its own core with taskset; the generator (this process, every thread)
// pinned to the others, beside PostgreSQL and FreeRADIUS.

export const serverCore = "0";
/** Every core but the server's, as taskset's list: "1" on a 2-core machine. */
export const otherCores = availableParallelism() > 2 ? `1-${availableParallelism() - 1}` : "1";

export function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return availableParallelism() >= 2;
  } catch {
    return false;
  }
}

/** This process and all its threads (libuv's, undici's) onto the cores the server does not use. */
export function pinGenerator(): void {
  execFileSync("taskset", ["-a", "-p", "-c", otherCores, String(process.pid)], { stdio: "ignore" });
}

export interface PinnedServer {
  pid: number;
  origin: string;
  metricsToken: string;
  stop(): Promise<void>;
}

export async function startPinnedServer(options: {
  port: number;
  publicUrl: string;
  databaseUrl: string;
  sessionSecret: string;
}): Promise<PinnedServer> {
  const metricsToken = randomBytes(32).toString("base64url");
  const origin = `http://127.0.0.1:${options.port}`;
  const env = {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    PUBLIC_URL: options.publicUrl,
    HOST: "127.0.0.1",
    PORT: String(options.port),
    SESSION_SECRET: options.sessionSecret,
    METRICS_TOKEN: metricsToken,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: "warn",
    WEB_DIST_DIR: "/nonexistent-web-dist",
    ...productionEnvironment,
  };
  // taskset execs the program: the child's pid is the server's.
  const child = spawn("taskset", ["-c", serverCore, process.execPath, ...productionNodeFlags, productionEntry], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitUntilAnswering(`${origin}/ready`, child, 120_000);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    pid: child.pid ?? 0,
    origin,
    metricsToken,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** KPI ID's event-loop lag p99 in ms from its /metrics; NaN when it cannot be read. */
export async function eventLoopLagMs(server: PinnedServer): Promise<number> {
  try {
    const response = await fetch(`${server.origin}/metrics`, {
      headers: { authorization: `Bearer ${server.metricsToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const line = /^kpi_id_nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
    return line ? Number(line[1]) * 1000 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
