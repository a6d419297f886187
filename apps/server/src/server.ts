import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./platform/config/index.ts";
import { usePrivateUmask } from "./platform/db/data-dir-modes.ts";
import { openDatabase } from "./platform/db/index.ts";
import { DatabaseLockedError } from "./platform/db/lock-file.ts";
import { migrate } from "./platform/db/migrate.ts";
import { trustExtraCas } from "./platform/http/outbound-trust.ts";
import { createTestClock, registerTestClockRoute, testClockWanted } from "./platform/http/test-clock.ts";
import { registerTestJobRoute } from "./surfaces/maintenance/test-job-route.ts";
import { demoAccountsBanner, demoAccountsWithPublishedPasswords, seedDemoData } from "./surfaces/seed/demo.ts";

// With the server, so that a caller that loads the bundle (scripts/start.ts) reads its configuration with the
// same classes the bundle's reportStartupFailure recognises.
export { loadConfig };

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export { usePrivateUmask };

/** Opens the database, applies migrations, seeds demo data where allowed, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  // Before anything calls an outside host (CRL fetches, NBU, Diia).
  trustExtraCas(config.tlsExtraCaFile);
  // Off by default; the SDK is loaded only when asked for, so an instance without it keeps its memory and start-up.
  const tracing = config.tracing ? (await import("./platform/tracing/start.ts")).startTracing() : undefined;
  const database = await openDatabase({
    url: config.database.url,
    dataDir: config.database.dataDir,
    poolMax: config.database.poolMax,
    preparedStatements: config.database.preparedStatements,
  });
  let app: FastifyInstance | undefined;
  try {
    const applied = await migrate(database);
    // End-to-end runs (TEST_CLOCK=true, never in production) move the clock instead of waiting.
    const testClock = testClockWanted(config) ? createTestClock() : undefined;
    app = await buildApp({ config, database, ...(testClock ? { clock: testClock.now } : {}) });
    if (testClock) {
      registerTestClockRoute(app, testClock);
      registerTestJobRoute(app);
    }
    if (applied.length > 0) app.log.info({ applied }, "database migrated");
    if (config.seedDemoData) await seedDemoData(app);
    const address = await app.listen({ host: config.host, port: config.port });
    app.log.info(`KPI ID is serving ${config.publicUrl} (listening on ${address})`);
    // After listening, before start-up ends: its check verifies each demo person's published password (argon2id,
    // five of them), which need not hold back the first answer of a restart.
    await warnAboutDemoAccounts(app);
    const running = app;
    const close = async () => {
      await running.close();
      // The spans of the last requests are sent before the process goes.
      await tracing?.shutdown();
    };
    return { app: running, url: address, close };
  } catch (error) {
    if (app) await app.close();
    else await database.close();
    await tracing?.shutdown();
    throw error;
  }
}

async function warnAboutDemoAccounts(app: FastifyInstance): Promise<void> {
  const demoAccounts = await demoAccountsWithPublishedPasswords(app);
  if (demoAccounts.length === 0) return;
  app.log.warn({ demoAccounts }, "demo accounts with published passwords exist");
  console.warn(demoAccountsBanner(demoAccounts));
}

function installShutdown(server: RunningServer): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, "shutting down: finishing in-flight requests");
    // A request stuck past this deadline must not keep the process alive forever.
    const deadline = setTimeout(() => process.exit(1), 15_000);
    deadline.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

export function reportStartupFailure(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(`kpi-id: ${error.message}`);
  } else {
    console.error("kpi-id: start-up failed:", error);
  }
  process.exit(1);
}

/** Starts the service from the environment, as `bin/kpi-id-server.js` (production) or running this file does. */
export async function main(): Promise<void> {
  // Before anything is written: DATA_DIR's files 0600 and folders 0700 (data-dir-modes.ts). Here, in the program,
  // not in startServer: a process that starts a server in-process (the passkey browser specs) keeps its own umask
  // for the files it makes for other accounts (Apache's and shibd's in the SAML specs).
  usePrivateUmask();
  try {
    const server = await startServer(loadConfig());
    installShutdown(server);
  } catch (error) {
    reportStartupFailure(error);
  }
}

if (import.meta.main) await main();
