import { readFile } from "node:fs/promises";
import { ConfigError, loadConfig } from "../../platform/config/index.ts";
import { createPasswordHasher } from "../../platform/crypto/password.ts";
import { usePrivateUmask } from "../../platform/db/data-dir-modes.ts";
import { type DatabaseHandle, openDatabase } from "../../platform/db/index.ts";
import { DatabaseLockedError } from "../../platform/db/lock-file.ts";
import { migrate } from "../../platform/db/migrate.ts";
import { trustExtraCas } from "../../platform/http/outbound-trust.ts";
import { serverVersion } from "../../platform/release/version.ts";
import { doctorExitCode, formatChecks, runDoctor } from "../doctor/run.ts";
import { readStdin } from "./args.ts";
import { runBackupCommand } from "./backup-commands.ts";
import { commandGroups } from "./commands/index.ts";
import { createOutput } from "./output.ts";
import { type ServiceSignOut, sessionsOnlySignOut } from "./sign-out.ts";
import { CommandFailedError, UsageError, usage } from "./usage.ts";

export interface CliIo {
  env?: Record<string, string | undefined>;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  readStdin?: () => Promise<string>;
  /** Tests hand in an already open database; otherwise the configured one is opened. */
  database?: DatabaseHandle;
  /** Tests move time (certificates' expiry in `doctor`). */
  now?: Date;
  /** Tests lower scrypt's cost for a backup's passphrase (platform/db/backup-encryption.ts says why). */
  backupScryptWorkFactor?: number;
  /** The service's sign-out participants (bin/kpi-id.js, tests); without it a command's sign-out tells nobody. */
  serviceSignOut?: ServiceSignOut;
}

function findHandler(argv: string[]) {
  const [group, command, subcommand, ...more] = argv;
  if (group === "migrate") return { handler: undefined, rest: argv.slice(1), migrateOnly: true };
  // Two-word commands of a group ("saml sp add") are registered as "sp add".
  const twoWord = command && subcommand ? commandGroups[group ?? ""]?.[`${command} ${subcommand}`] : undefined;
  if (twoWord) return { handler: twoWord, rest: more, migrateOnly: false };
  const rest = argv.slice(2);
  const handler = group && command ? commandGroups[group]?.[command] : undefined;
  if (!handler)
    throw new UsageError(
      group ? `unknown command '${[group, command].filter(Boolean).join(" ")}'` : "no command given",
    );
  return { handler, rest, migrateOnly: false };
}

/** Runs one operator command and returns the exit code: 0 done, 1 failed, 2 bad usage. */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const stderr = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (argv.length === 0 || argv[0] === "help" || argv.includes("--help") || argv.includes("-h")) {
    stdout(usage);
    return argv.length === 0 ? 2 : 0;
  }
  // The release answers without configuration or a database, so it works on a broken deployment too.
  if (argv[0] === "--version" || argv[0] === "version") {
    stdout(serverVersion);
    return 0;
  }
  // doctor loads the configuration and opens the database itself: it reports their failures, and never migrates.
  if (argv[0] === "doctor") {
    const checks = await runDoctor({ env: io.env ?? process.env, database: io.database, now: io.now });
    stdout(
      argv.includes("--json") ? JSON.stringify({ version: serverVersion, checks }, null, 2) : formatChecks(checks),
    );
    return doctorExitCode(checks);
  }
  let database = io.database;
  let service: Awaited<ReturnType<ServiceSignOut>> | undefined;
  try {
    if (argv[0] === "backup" || argv[0] === "restore") {
      const backupIo = {
        stdout,
        stderr,
        readStdin: io.readStdin ?? readStdin,
        scryptWorkFactor: io.backupScryptWorkFactor,
      };
      await runBackupCommand(argv, io.env ?? process.env, backupIo, io.database);
      return 0;
    }
    const { handler, rest, migrateOnly } = findHandler(argv);
    const config = loadConfig(io.env ?? process.env);
    // The CLI calls outside hosts too (bankid status asks NBU's node).
    trustExtraCas(config.tlsExtraCaFile);
    database ??= await openDatabase({
      url: config.database.url,
      dataDir: config.database.dataDir,
      poolMax: 2,
      warn: (line) => stderr(`kpi-id: warning: ${line}`),
    });
    const applied = await migrate(database);
    const out = createOutput(rest.includes("--json") || argv.includes("--json"), stdout);
    if (migrateOnly) {
      out.result({ applied }, applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
      return 0;
    }
    await handler?.(
      {
        config,
        db: database.db,
        hasher: createPasswordHasher(config.argon2),
        out,
        readStdin: io.readStdin ?? readStdin,
        readFile: (path) => readFile(path, "utf8"),
        signOut: async () => {
          const open = database;
          if (!io.serviceSignOut || !open) return sessionsOnlySignOut();
          service ??= await io.serviceSignOut(config, open, stderr);
          return service.signOut;
        },
      },
      rest,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      stderr(`kpi-id: ${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof CommandFailedError || error instanceof ConfigError || error instanceof DatabaseLockedError) {
      stderr(`kpi-id: ${error.message}`);
      return 1;
    }
    stderr(`kpi-id: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await service?.close();
    if (database && !io.database) await database.close();
  }
}

/**
 * The CLI as a program (bin/kpi-id.js, `npm run admin`): first the private umask, so what it creates in DATA_DIR is
 * 0600/0700 (data-dir-modes.ts). Only here, not in runCli: a process that calls runCli as a library (the browser
 * tests' harness) keeps its own umask for the files it makes for other accounts (Apache's, shibd's).
 */
export function runCliAsProgram(argv: string[], io: Pick<CliIo, "serviceSignOut"> = {}): Promise<number> {
  usePrivateUmask();
  return runCli(argv, io);
}

if (import.meta.main) {
  process.exitCode = await runCliAsProgram(process.argv.slice(2));
}
