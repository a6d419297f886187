// Starts every Playwright worker's server at once (playwright.config.ts): Playwright starts the entries of its
// webServer list one after another, and each start-up (stand-ins, the embedded database, the demo campus) took
// 8-10 s, most of it waiting on one core (issue 41). Each server is `node scripts/start.ts` with its own
// environment, its output passed through; once every one answers /health, this process answers on its own port,
// which Playwright waits for. At the end Playwright sends this process's whole group SIGTERM, the servers with it;
// this process waits for them, then drops the PostgreSQL databases it made for them (e2e-databases.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { dropAbandonedRunDatabases, dropRunDatabases, holdRunLock } from "@kpi-id/server/testing";
import { waitFor } from "../../cluster/lib/wait.ts";
import { createE2eDatabase, e2eDatabaseFamily, e2eRunDatabasePrefix } from "./e2e-databases.ts";

export interface ServerToStart {
  env: Record<string, string>;
  healthUrl: string;
}

const startTimeoutMs = 120_000;
/** How long a server may take to close before its database is dropped under it. */
const closeTimeoutMs = 5_000;

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await Promise.race([once(child, "exit"), new Promise((resolve) => setTimeout(resolve, closeTimeoutMs))]);
}

async function stopServersAndDropDatabases(): Promise<void> {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map(exited));
  // Every database of the run: the servers' and any a spec's own KPI ID left (its worker crashed before dropping it).
  if (postgresAdminUrl) {
    await dropRunDatabases(postgresAdminUrl, e2eRunDatabasePrefix()).catch((error: unknown) => {
      console.error(`e2e servers: could not drop the run's databases: ${String(error)}`);
    });
  }
}

/** Set once stopping began: a second reason to stop (SIGINT after SIGTERM, a server's exit) waits for the same end. */
let stopping: Promise<void> | undefined;

async function stopAll(exitCode: number, why?: string): Promise<never> {
  if (why) console.error(`e2e servers: ${why}`);
  stopping ??= stopServersAndDropDatabases();
  await stopping;
  process.exit(exitCode);
}

const children: ChildProcess[] = [];
process.on("SIGTERM", () => void stopAll(0));
process.on("SIGINT", () => void stopAll(0));
// Whatever goes wrong here stops the servers already started: Playwright stops this process's group only while
// this process is alive.
process.on("uncaughtException", (error) => void stopAll(1, String(error)));
process.on("unhandledRejection", (error) => void stopAll(1, String(error)));

const servers = JSON.parse(process.env.E2E_SERVERS_TO_START ?? "[]") as ServerToStart[];
const readyPort = Number(process.env.E2E_SERVERS_READY_PORT);
/** The server the databases are made on (playwright.config.ts), empty for the embedded database. */
const postgresAdminUrl = process.env.E2E_POSTGRES_ADMIN_URL ?? "";

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

// A server left running on one of these ports (an earlier run's) would answer for this run's: refuse, as
// Playwright's own check of each server's address did.
for (const server of servers) {
  if (await answers(server.healthUrl))
    await stopAll(1, `${server.healthUrl} already answers: stop the server on it first`);
}

if (postgresAdminUrl) {
  // Held until this process ends (its connection with it): the run's databases are its own while it lives. Then the
  // databases of earlier runs stopped before they could drop theirs (killed, timed out) go.
  await holdRunLock(postgresAdminUrl, e2eRunDatabasePrefix());
  await dropAbandonedRunDatabases(postgresAdminUrl, e2eDatabaseFamily);
}
for (const server of servers) {
  const url = server.env.DATABASE_URL;
  if (!url) continue;
  await createE2eDatabase(postgresAdminUrl, url);
}

let ready = false;
for (const server of servers) {
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    stdio: "inherit",
    env: { ...process.env, ...server.env },
  });
  children.push(child);
  child.on("error", (error) => void stopAll(1, `${server.healthUrl}: ${error.message}`));
  child.on("exit", (code, signal) => {
    const how = signal ?? `exit code ${code}`;
    // Once the run has begun, the other workers' servers go on: only this server's worker fails its tests.
    if (stopping) return;
    if (ready) console.error(`e2e servers: the server of ${server.healthUrl} stopped (${how}) during the run`);
    else void stopAll(1, `the server of ${server.healthUrl} stopped (${how}) before it answered`);
  });
}

// A server that does not answer in time rejects, and the rejection stops them all (above).
await Promise.all(servers.map((server) => waitFor(server.healthUrl, startTimeoutMs, () => answers(server.healthUrl))));
ready = true;
createServer((_request, response) => response.end("ready"))
  .on("error", (error) => void stopAll(1, `the ready port ${readyPort}: ${error.message}`))
  .listen(readyPort, "127.0.0.1");
