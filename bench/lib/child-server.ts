import { type ChildProcess, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { procStatusMiB } from "./process-usage.ts";

/** A server process the bench started; its memory is read from /proc, so it needs no bench route. */
export interface ChildServer {
  url: string;
  /** The process id, for figures read from /proc (CPU time, memory). */
  pid: number;
  /** Spawn to the first 200 from `readyPath`, in seconds. */
  startSeconds: number;
  /** Resident memory now (VmRSS) and the most it ever held (VmHWM), in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  stop(): Promise<void>;
}

/** Polls `url` until it answers 200; throws if `child` exits first or the time runs out. */
export async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const status = await fetch(url).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Starts `node <nodeFlags> <script> <args>` with `env`, and times it until `readyUrl` answers 200. */
export async function startChildServer(
  script: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  nodeFlags: readonly string[] = [],
): Promise<ChildServer> {
  const began = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitUntilAnswering(readyUrl, child, 60_000);
  } catch (error) {
    child.kill();
    throw error;
  }
  const startSeconds = (performance.now() - began) / 1000;
  const pid = child.pid ?? 0;
  return {
    url: new URL(readyUrl).origin,
    pid,
    startSeconds,
    memory: () => ({ rssMiB: procStatusMiB(pid, "VmRSS"), peakMiB: procStatusMiB(pid, "VmHWM") }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
