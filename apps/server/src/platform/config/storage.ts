import { resolve } from "node:path";
import { parseEnvironment } from "./parse.ts";
import { environmentSchema } from "./schema.ts";
import { givenSessionSecrets } from "./secrets.ts";

/**
 * Where the data is (DATA_DIR, DATABASE_URL) and nothing else: backup and restore read only this, so a restore
 * into a new DATA_DIR does not generate a session secret there first (loadConfig does, outside production).
 */
export function loadStorageConfig(source: Record<string, string | undefined> = process.env): {
  dataDir: string;
  url?: string;
} {
  const environment = parseEnvironment(environmentSchema().pick({ DATA_DIR: true, DATABASE_URL: true }), source);
  return { dataDir: resolve(environment.DATA_DIR), url: environment.DATABASE_URL };
}

/** SESSION_SECRET's (or SESSION_SECRET_FILE's) keys when set: a restore checks the backup against them. */
export function loadGivenSessionSecrets(
  source: Record<string, string | undefined> = process.env,
): [string, ...string[]] | undefined {
  return givenSessionSecrets(
    parseEnvironment(environmentSchema().pick({ SESSION_SECRET: true, NODE_ENV: true }), source),
  );
}
