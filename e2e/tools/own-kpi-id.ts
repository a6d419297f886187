import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { loadConfig } from "@kpi-id/server/config";
import { buildApp, migrate, openDatabase, runCliOn } from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";

export interface OwnKpiId {
  app: FastifyInstance;
  origin: string;
  /** An operator command (`npx kpi-id …` without the prefix), run in this process on this server's database. */
  cli(args: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * A KPI ID of the spec's own (an empty embedded database) on `port`, as the passkey specs run one, so the spec can
 * register its relying party with the operator CLI the docs print: the worker's shared server keeps its embedded
 * database locked. `trustCertificate`: a site's self-signed certificate KPI ID's outgoing calls (back-channel
 * logout) accept, as TLS_EXTRA_CA_FILE does in a deployment.
 */
export async function startOwnKpiId(port: number, options: { trustCertificate?: string } = {}): Promise<OwnKpiId> {
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-own-"));
  const origin = `http://localhost:${port}`;
  const env = {
    PORT: String(port),
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "warn",
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
  return {
    app,
    origin,
    cli: async (args) => {
      const run = await runCliOn(database, args, { env });
      if (run.code !== 0) throw new Error(`kpi-id ${args.join(" ")}: ${run.stderr}`);
      return run.stdout;
    },
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
