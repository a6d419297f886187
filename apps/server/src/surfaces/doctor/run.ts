import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError, loadConfig } from "../../platform/config/index.ts";
import { type DatabaseHandle, openDatabase } from "../../platform/db/index.ts";
import { DatabaseLockedError } from "../../platform/db/lock-file.ts";
import {
  type CheckResult,
  checkBankList,
  checkCertificates,
  checkClock,
  checkKeys,
  checkMetrics,
  checkMigrations,
  checkProductionMode,
} from "./checks.ts";
import { checkDiiaRevocation } from "./revocation.ts";

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  /** Tests hand in an open database; otherwise the configured one is opened (and closed). */
  database?: DatabaseHandle;
  now?: Date;
}

async function withDatabase(config: Config, given: DatabaseHandle | undefined, checks: CheckResult[]) {
  if (given) return { database: given, close: async () => {} };
  const embedded = join(config.database.dataDir, "pglite");
  // Opening an embedded database that is not there would make an empty one: doctor changes nothing.
  if (!config.database.url && !existsSync(embedded)) {
    checks.push({
      check: "database",
      status: "fail",
      message: `no embedded database at ${embedded}`,
      fix: "set DATA_DIR to the server's, or DATABASE_URL for PostgreSQL",
    });
    return undefined;
  }
  try {
    const database = await openDatabase({ url: config.database.url, dataDir: config.database.dataDir, poolMax: 2 });
    if (!(await database.ping())) {
      await database.close();
      checks.push({
        check: "database",
        status: "fail",
        message: "does not answer",
        fix: "start it, or fix DATABASE_URL",
      });
      return undefined;
    }
    return { database, close: () => database.close() };
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      checks.push({
        check: "database",
        status: "warn",
        message: "the embedded database is open in the running server; its checks were skipped",
        fix: "stop the server to check it, or use PostgreSQL (DATABASE_URL) for a deployment",
      });
      return undefined;
    }
    const message = error instanceof Error ? error.message : String(error);
    checks.push({
      check: "database",
      status: "fail",
      message: `cannot be opened: ${message}`,
      fix: "fix DATABASE_URL or DATA_DIR",
    });
    return undefined;
  }
}

/**
 * `kpi-id doctor`: what a deployment needs, checked in order; a configuration that does not load stops
 * the rest. Never changes anything (migrations are checked, not applied).
 */
export async function runDoctor(options: DoctorOptions): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  let config: Config;
  try {
    config = loadConfig(options.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [{ check: "configuration", status: "fail", message: error.message, fix: "see .env.example" }];
  }
  const kind = config.database.url ? "PostgreSQL" : `the embedded database in ${config.database.dataDir}`;
  checks.push({ check: "configuration", status: "ok", message: `loads; ${kind}; ${config.publicUrl}` });
  checks.push(checkProductionMode(config));
  checks.push(checkMetrics(config));
  const opened = await withDatabase(config, options.database, checks);
  if (!opened) return checks;
  try {
    checks.push({ check: "database", status: "ok", message: "answers" });
    const migrations = await checkMigrations(opened.database.db);
    checks.push(migrations);
    // Tables a pending migration adds may be missing: the rest would only repeat its failure.
    if (migrations.status === "fail") return checks;
    checks.push(await checkKeys(opened.database.db, config));
    checks.push(...(await checkCertificates(opened.database.db, config, options.now ?? new Date())));
    checks.push(await checkClock(opened.database.db));
    const bankList = await checkBankList(opened.database.db, config, options.now ?? new Date());
    if (bankList) checks.push(bankList);
    const revocation = await checkDiiaRevocation(opened.database.db, config, options.now ?? new Date());
    if (revocation) checks.push(revocation);
    return checks;
  } finally {
    await opened.close();
  }
}

/** 0: all ok; 1: a problem to fix; 3: only warnings. */
export function doctorExitCode(checks: CheckResult[]): number {
  if (checks.some((check) => check.status === "fail")) return 1;
  return checks.some((check) => check.status === "warn") ? 3 : 0;
}

export function formatChecks(checks: CheckResult[]): string {
  const width = Math.max(...checks.map((check) => check.check.length));
  return checks
    .map((check) => {
      const line = `${check.status.toUpperCase().padEnd(4)}  ${check.check.padEnd(width)}  ${check.message}`;
      return check.fix ? `${line}\n      ${" ".repeat(width)}  fix: ${check.fix}` : line;
    })
    .join("\n");
}
