import type { FastifyInstance } from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config/index.ts";
import { createTestDatabase } from "../../apps/server/test/support/databases.ts";

export interface BenchApp {
  app: FastifyInstance;
  databaseKind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * The real service with production settings except logging, on a fresh
 * database: PostgreSQL when DATABASE_URL is set (a scratch database dropped
 * afterwards), otherwise in-memory PGlite.
 */
export async function startBenchApp(): Promise<BenchApp> {
  const databaseKind = process.env.DATABASE_URL ? "postgres" : "pglite";
  const database = await createTestDatabase(databaseKind);
  const config = loadConfig({
    NODE_ENV: "test",
    PUBLIC_URL: "http://127.0.0.1:1",
    SESSION_SECRET: "bench-only-session-secret-0123456789-abcdefghijklmnop",
    DATA_DIR: "/tmp/kpi-id-bench-unused",
    LOG_LEVEL: "silent",
    SEED_DEMO_DATA: "false",
    WEB_DIST_DIR: "/nonexistent-web-dist",
  });
  const app = await buildApp({ config, database: database.handle, logger: false });
  await app.ready();
  return {
    app,
    databaseKind,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
