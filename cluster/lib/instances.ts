import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { productionEntry, productionEnvironment, productionNodeFlags } from "@kpi-id/server/production-process";
import { waitFor } from "./wait.ts";

export interface Instance {
  name: string;
  port: number;
  url: string;
  /** The address nginx's log shows for this instance. */
  address: string;
  process: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

/** What every instance of a run shares: production mode behind nginx on loopback, logging warnings only. */
export function instanceEnv(options: {
  publicUrl: string;
  databaseUrl: string;
  /** The Diia stand-in's settings (its `env`). */
  diia: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: "production",
    PUBLIC_URL: options.publicUrl,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    // Production serves /metrics only to this bearer token (or on METRICS_PORT): a loopback peer is no proof.
    METRICS_TOKEN: randomBytes(32).toString("base64url"),
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_MAX: "10",
    TRUST_PROXY: "127.0.0.1",
    LOG_LEVEL: "warn",
    ...options.diia,
  };
}

/** The production command (`productionCommand`) on a loopback port, its log in the run's directory. */
export async function startInstance(
  name: string,
  port: number,
  env: Record<string, string>,
  logDir: string,
  /** Another release's bin/kpi-id-server.js (the rolling upgrade starts the previous one). */
  entry: string = productionEntry,
): Promise<Instance> {
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: "a" });
  const child = spawn(process.execPath, [...productionNodeFlags, entry], {
    env: { ...process.env, ...productionEnvironment, ...env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`instance ${name} ready on ${url}`, 60_000, async () => {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}; see ${logDir}`);
    return (await fetch(`${url}/ready`).catch(() => undefined))?.ok === true;
  });
  return { name, port, url, address: `127.0.0.1:${port}`, process: child, exited };
}

/** SIGKILL: no graceful shutdown, in-flight requests are cut, as when a machine dies. */
export async function killInstance(instance: Instance): Promise<void> {
  instance.process.kill("SIGKILL");
  await Promise.race([instance.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
}

export async function stopInstance(instance: Instance): Promise<void> {
  if (instance.process.exitCode !== null || instance.process.signalCode !== null) return;
  instance.process.kill("SIGTERM");
  await Promise.race([instance.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (instance.process.exitCode === null) instance.process.kill("SIGKILL");
}
