import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import type { Config } from "../../src/platform/config/index.ts";
import { openDatabase } from "../../src/platform/db/index.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { runCli } from "../../src/surfaces/cli/main.ts";

/**
 * The service on an embedded database in a folder on disk, listening on `port` (OpenID Connect clients reach
 * it over HTTP), started and stopped as often as a backup-and-restore drill needs; and the CLI beside it.
 */
export function onDiskService(port: Promise<number>) {
  let running: FastifyInstance | undefined;
  const stop = async () => {
    await running?.close();
    running = undefined;
  };
  async function start(dataDir: string, configFor: (env: Record<string, string>) => Config) {
    const origin = `http://127.0.0.1:${await port}`;
    const env = { PUBLIC_URL: origin, PORT: String(await port), DATA_DIR: dataDir };
    const database = await openDatabase({ dataDir });
    await migrate(database);
    const app = await buildApp({ config: configFor(env), database, logger: false });
    await app.listen({ host: "127.0.0.1", port: await port });
    running = app;
    return { app, origin, issuer: `${origin}/oidc`, env };
  }
  return { start, stop };
}

/** `npx kpi-id …` in-process: its exit code and what it printed. */
export async function kpiIdCli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env, stdout: (line) => out.push(line), stderr: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
