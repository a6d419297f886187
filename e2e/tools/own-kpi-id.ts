import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { loadConfig } from "@kpi-id/server/config";
import { addPerson, buildApp, migrate, openDatabase, runCliOn } from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";
import { test } from "../fixtures.ts";
import { createE2eDatabase, dropE2eDatabase, e2ePostgresAdminUrl, newE2eDatabaseUrl } from "./e2e-databases.ts";

export interface OwnKpiId {
  app: FastifyInstance;
  origin: string;
  /** An operator command (`npx kpi-id …` without the prefix), run in this process on this server's database. */
  cli(args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** A person the spec signs in as, made with a password when its KPI ID starts. */
export interface OwnPerson {
  username: string;
  fullName: string;
  password: string;
}

export interface OwnKpiIdOptions {
  /**
   * A site's self-signed certificate KPI ID's outgoing calls (back-channel logout) accept, as TLS_EXTRA_CA_FILE does
   * in a deployment.
   */
  trustCertificate?: string;
  /** More of the environment beside the defaults (RADIUS_REST_SECRET for Wi-Fi, a shorter REAUTH_MAX_AGE_SECONDS). */
  env?: Record<string, string>;
  /** People added once it listens. */
  people?: OwnPerson[];
}

/** Where a KPI ID of a spec's own on `port` is served. */
export function ownKpiIdOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/**
 * A KPI ID of the spec's own (an empty embedded database, no demo people) on `port`: for a spec that registers its
 * relying party with the operator CLI the docs print (the worker's shared server keeps its embedded database
 * locked), or that changes what the shared demo people keep (passkeys, Wi-Fi passwords), or needs a setting the
 * shared server lacks.
 */
export async function startOwnKpiId(port: number, options: OwnKpiIdOptions = {}): Promise<OwnKpiId> {
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-own-"));
  const origin = ownKpiIdOrigin(port);
  // An empty database of its own: on the run's PostgreSQL server when it has one (e2e-databases.ts), else embedded.
  const postgresAdminUrl = e2ePostgresAdminUrl();
  const databaseUrl = postgresAdminUrl ? newE2eDatabaseUrl(postgresAdminUrl, `own_${port}`) : "";
  if (postgresAdminUrl) await createE2eDatabase(postgresAdminUrl, databaseUrl);
  const env = {
    PORT: String(port),
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "warn",
    ...options.env,
  };
  if (options.trustCertificate) {
    const pem = readFileSync(options.trustCertificate, "utf8");
    tls.setDefaultCACertificates([...tls.getCACertificates("default"), pem]);
  }
  const config = loadConfig(env);
  const database = await openDatabase({ url: config.database.url, dataDir: config.database.dataDir, poolMax: 2 });
  await migrate(database);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: "127.0.0.1", port });
  for (const person of options.people ?? []) {
    await addPerson(app, { username: person.username, fullName: person.fullName }, person.password);
  }
  return {
    app,
    origin,
    cli: async (args) => {
      const run = await runCliOn(database, args, { env });
      if (run.code !== 0) throw new Error(`kpi-id ${args.join(" ")}: ${run.stderr}`);
      return run.stdout;
    },
    close: async () => {
      try {
        // Closing the app closes its database too.
        await app.close();
      } finally {
        if (postgresAdminUrl) await dropE2eDatabase(postgresAdminUrl, databaseUrl);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * startOwnKpiId for a whole spec file: it starts before the file's first test and closes after its last. Returns
 * its origin, known at once from the port.
 */
export function useOwnKpiId(port: number, options: OwnKpiIdOptions = {}): string {
  let kpiId: OwnKpiId | undefined;
  test.beforeAll(async () => {
    kpiId = await startOwnKpiId(port, options);
  });
  test.afterAll(async () => {
    await kpiId?.close();
  });
  return ownKpiIdOrigin(port);
}
