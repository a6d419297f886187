// Starts every Playwright worker's server at once (playwright.config.ts): Playwright starts the entries of its
// webServer list one after another, and each start-up (stand-ins, the embedded database, the demo campus) took
// 8-10 s, most of it waiting on one core (issue 41). Each server is `node scripts/start.ts` with its own
// environment, its output passed through; once every one answers /health, this process answers on its own port,
// which Playwright waits for. Playwright stops this process's whole group at the end, the servers with it.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

export interface ServerToStart {
  env: Record<string, string>;
  healthUrl: string;
}

const servers = JSON.parse(process.env.E2E_SERVERS_TO_START ?? "[]") as ServerToStart[];
const readyPort = Number(process.env.E2E_SERVERS_READY_PORT);
const startTimeoutMs = 120_000;

const children = servers.map((server) =>
  spawn(process.execPath, ["scripts/start.ts"], { stdio: "inherit", env: { ...process.env, ...server.env } }),
);
for (const child of children) {
  child.on("exit", (code, signal) => {
    console.error(`a test server stopped (${signal ?? `exit code ${code}`}) before the run ended`);
    stopAll(1);
  });
}

function stopAll(exitCode: number): never {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(exitCode);
}
process.on("SIGTERM", () => stopAll(0));
process.on("SIGINT", () => stopAll(0));

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (!(await answers(url))) {
    if (Date.now() > deadline) {
      console.error(`${url} did not answer within ${startTimeoutMs / 1000} s`);
      stopAll(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

await Promise.all(servers.map((server) => waitForHealth(server.healthUrl)));
createServer((_request, response) => response.end("ready")).listen(readyPort, "127.0.0.1");
