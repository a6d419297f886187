import { appendFileSync } from "node:fs";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp, type ProtocolName } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/platform/config/index.ts";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";

export const TEST_PUBLIC_URL = "http://localhost:3000";
export const TEST_ORIGIN = new URL(TEST_PUBLIC_URL).origin;
/** The test apps' SESSION_SECRET: a CLI run against a test app's database needs it to open the sealed keys. */
export const TEST_SESSION_SECRET = "test-only-session-secret-0123456789-abcdefghijklmnop";

/** The configuration tests run with: fast argon2 is not allowed below OWASP, so the minimum is used. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    PUBLIC_URL: TEST_PUBLIC_URL,
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATA_DIR: "/tmp/kpi-id-test-unused",
    LOG_LEVEL: "silent",
    SEED_DEMO_DATA: "false",
    WEB_DIST_DIR: "/nonexistent-web-dist",
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: () => Date;
  /** Receives the app's log lines (at the configured LOG_LEVEL); without it the app logs nothing. */
  logStream?: { write(line: string): void };
  /**
   * The protocols the file drives (buildApp's `protocols`): `[]` for a file that asks only the sign-in, the account,
   * the console or the model through the app; default every one.
   */
  protocols?: readonly ProtocolName[];
}

/**
 * With KPI_ID_TEST_APP_BUILDS naming a file, each build adds a line there with the test file that asked for it: how
 * many whole apps a run builds, and where (docs/testing.md), for the next change to see what it added.
 */
function countBuild(protocols: readonly ProtocolName[] | undefined): void {
  const file = process.env.KPI_ID_TEST_APP_BUILDS;
  if (!file) return;
  // The caller's test file from the stack: this module is also loaded outside Vitest (bench/, examples/).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100; // a build asked for through several helpers
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  const caller = /[^\s(]+\.test\.tsx?/.exec(stack)?.[0] ?? "outside a test file";
  const built = protocols ? `protocols: ${protocols.join(",") || "none"}` : "every protocol";
  appendFileSync(file, `${caller.replace(/^file:\/\//, "")}\t${built}\n`);
}

/** A fresh app on a fresh database of the given kind; close() drops both. */
export async function createTestApp(
  kind: DatabaseKind,
  overrides: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  countBuild(options.protocols);
  const database = await createTestDatabase(kind);
  const config = testConfig(overrides);
  const { clock, logStream, protocols } = options;
  const logger = logStream !== undefined;
  const app = await buildApp({ config, database: database.handle, logger, logStream, clock, protocols });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}

/** A POST the way the web app sends it: JSON with the service's own Origin. */
export function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url,
    payload: body === undefined ? "" : JSON.stringify(body),
    ...options,
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, ...(options.headers ?? {}) },
  });
}
