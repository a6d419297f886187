import { buildApp, createTestDatabase, testConfig } from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";

export interface BenchApp {
  app: FastifyInstance;
  databaseKind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * The real service with production settings except logging, on a fresh
 * database: PostgreSQL when DATABASE_URL is set (a scratch database dropped
 * afterwards), otherwise in-memory PGlite. `settings` are environment variables over the test defaults.
 */
export async function startBenchApp(settings: Record<string, string> = {}): Promise<BenchApp> {
  const databaseKind = process.env.DATABASE_URL ? "postgres" : "pglite";
  const database = await createTestDatabase(databaseKind);
  const config = testConfig({ PUBLIC_URL: "http://127.0.0.1:1", ...settings });
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
