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
  /** The stand-ins' variables (Google, Diia, BankID NBU) and the RADIUS endpoint's secret. */
  extraEnv?: Record<string, string>;
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
    // As behind nginx on the same machine: each person's own address arrives in X-Forwarded-For.
    TRUST_PROXY: "loopback",
    ...options.extraEnv,
    ...productionEnvironment,
    // The line of password checks and libuv's pool, as the operator sets them (to compare settings).
    ...Object.fromEntries(
      ["PASSWORD_CHECKS_PARALLEL", "PASSWORD_CHECKS_WAITING", "PASSWORD_CHECK_WAIT_MS", "UV_THREADPOOL_SIZE"].flatMap(
        (name) => (process.env[name] ? [[name, process.env[name]]] : []),
      ),
    ),
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

/** KPI ID's /metrics as numbers by series (`name{labels}`); empty when it cannot be read. */
export async function serverMetrics(server: PinnedServer): Promise<Map<string, number>> {
  const series = new Map<string, number>();
  try {
    const response = await fetch(`${server.origin}/metrics`, {
      headers: { authorization: `Bearer ${server.metricsToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of (await response.text()).split("\n")) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
      if (match?.[1] && match[2]) series.set(match[1], Number(match[2]));
    }
  } catch {
    // Not read: the step's figures say NaN.
  }
  return series;
}
