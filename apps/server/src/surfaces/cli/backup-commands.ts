import { readFileSync } from "node:fs";
import { loadStorageConfig } from "../../platform/config/index.ts";
import type { BackupKey, BackupOpener } from "../../platform/db/backup-encryption.ts";
import {
  BackupRefusedError,
  backupEmbeddedDatabase,
  restoreEmbeddedDatabase,
} from "../../platform/db/embedded-backup.ts";
import { type DatabaseHandle, openDatabase } from "../../platform/db/index.ts";
import { DatabaseLockedError } from "../../platform/db/lock-file.ts";
import { serverVersion } from "../../platform/release/version.ts";
import { parseOptions, required } from "./args.ts";
import { createOutput } from "./output.ts";
import { restoredSecretCheck, secretToCarry } from "./restore-secret.ts";
import { CommandFailedError, UsageError } from "./usage.ts";

const runningServer = (error: DatabaseLockedError) =>
  new CommandFailedError(
    `the server (process ${error.holderPid}) has the embedded database open, and it admits one process: ` +
      "stop the server, run this again, start it (the copy takes seconds); an install that must not stop uses PostgreSQL",
  );

const postgresBackup =
  "DATABASE_URL is set: back up PostgreSQL with pg_dump, or pg_basebackup with WAL archiving (docs/operations.md, Backups)";
const postgresRestore =
  "DATABASE_URL is set: restore PostgreSQL with pg_restore or from a base backup (docs/operations.md, Backups)";

export interface BackupCommandIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  readStdin: () => Promise<string>;
  /** Tests only: scrypt's cost for a passphrase below age's default (backup-encryption.ts says why). */
  scryptWorkFactor?: number;
}

/** A passphrase from a file (its final line break dropped) or standard input; never from argv or the environment. */
async function readPassphrase(
  options: { "passphrase-file"?: string; "passphrase-stdin"?: boolean },
  io: BackupCommandIo,
): Promise<string | undefined> {
  const file = options["passphrase-file"];
  if (file !== undefined && options["passphrase-stdin"]) {
    throw new UsageError("--passphrase-file and --passphrase-stdin: give one of them");
  }
  if (options["passphrase-stdin"]) return io.readStdin();
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new CommandFailedError(`--passphrase-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
}

const passphraseOptions = {
  "passphrase-file": { type: "string" },
  "passphrase-stdin": { type: "boolean" },
} as const;

async function backupKey(
  options: { recipient?: string[]; "passphrase-file"?: string; "passphrase-stdin"?: boolean },
  io: BackupCommandIo,
): Promise<BackupKey | undefined> {
  const passphrase = await readPassphrase(options, io);
  const recipients = options.recipient ?? [];
  if (passphrase !== undefined && recipients.length > 0) {
    throw new UsageError("--recipient and a passphrase: encrypt with one of them");
  }
  if (passphrase !== undefined) return { passphrase };
  return recipients.length > 0 ? { recipients } : undefined;
}

async function backupOpener(
  options: { "identity-file"?: string; "passphrase-file"?: string; "passphrase-stdin"?: boolean },
  io: BackupCommandIo,
): Promise<BackupOpener | undefined> {
  const passphrase = await readPassphrase(options, io);
  const identityFile = options["identity-file"];
  if (identityFile === undefined) return passphrase === undefined ? undefined : { passphrase };
  if (passphrase !== undefined) throw new UsageError("--identity-file and a passphrase: give one of them");
  let contents: string;
  try {
    contents = readFileSync(identityFile, "utf8");
  } catch (error) {
    throw new CommandFailedError(
      `--identity-file: cannot read ${identityFile} (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  // age's identity files: one AGE-SECRET-KEY-1... a line, `#` comments.
  const identities = contents
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  return { identities };
}

/**
 * `backup --to FILE` and `restore --from FILE [--replace]` for the embedded database, each optionally with a
 * key (encryption: docs/operations.md, Backups). They run outside the usual command path: that one opens and
 * migrates the database first, and a restore must not open it. Every refusal is one line with a stable code.
 */
export async function runBackupCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: BackupCommandIo,
  given?: DatabaseHandle,
): Promise<void> {
  const [command, ...args] = argv;
  const storage = loadStorageConfig(env);
  const warn = (line: string) => io.stderr(`kpi-id: warning: ${line}`);
  try {
    if (command === "backup") {
      const options = parseOptions(args, {
        to: { type: "string" },
        recipient: { type: "string", multiple: true },
        "without-secret": { type: "boolean" },
        ...passphraseOptions,
      });
      const file = required(options, "to");
      if (storage.url !== undefined && !given) throw new BackupRefusedError("backup.postgres", postgresBackup);
      const key = await backupKey(options, io);
      const generated = secretToCarry(env, storage.dataDir);
      const sessionSecret = options["without-secret"] ? undefined : generated;
      const database = given ?? (await openDatabase({ dataDir: storage.dataDir, warn }));
      try {
        const bytes = await backupEmbeddedDatabase(database, file, {
          productVersion: serverVersion,
          key,
          sessionSecret,
          scryptWorkFactor: io.scryptWorkFactor,
        });
        const sealed = key
          ? "passphrase" in key
            ? ", encrypted with the passphrase"
            : ", encrypted for the recipients"
          : "";
        createOutput(options.json === true, io.stdout).result(
          { file, bytes, encrypted: key !== undefined, sessionSecret: sessionSecret !== undefined },
          `Backed up the embedded database in ${storage.dataDir} to ${file} (${bytes} bytes${sealed}). ` +
            (sessionSecret !== undefined
              ? "The session secret generated into DATA_DIR (session.secret) is in it: guard the file as that secret."
              : generated !== undefined
                ? "DATA_DIR/session.secret is not in it (--without-secret): keep it separately."
                : "SESSION_SECRET is not in it: keep it separately."),
        );
      } finally {
        if (!given) await database.close();
      }
      return;
    }
    const options = parseOptions(args, {
      from: { type: "string" },
      replace: { type: "boolean" },
      "identity-file": { type: "string" },
      ...passphraseOptions,
    });
    const file = required(options, "from");
    if (storage.url !== undefined) throw new BackupRefusedError("backup.postgres", postgresRestore);
    const opener = await backupOpener(options, io);
    const { movedAside, manifest, wroteSessionSecret, secretMovedAside } = await restoreEmbeddedDatabase(
      storage.dataDir,
      file,
      { replace: options.replace, opener, warn, checkSecret: restoredSecretCheck(env, storage.dataDir) },
    );
    if (!manifest) {
      warn(`${file} has no manifest (made by kpi-id 0.3.0 or older): restored without checksums to check it against`);
    }
    createOutput(options.json === true, io.stdout).result(
      {
        file,
        dataDir: storage.dataDir,
        movedAside,
        madeBy: manifest?.productVersion,
        checked: manifest !== undefined,
        sessionSecret: wroteSessionSecret,
      },
      `Restored ${file}${manifest ? ` (kpi-id ${manifest.productVersion}, ${manifest.createdAt}; every checksum matched)` : ""} into ${storage.dataDir}.` +
        (movedAside ? ` The database that was there is in ${movedAside}.` : "") +
        (wroteSessionSecret ? ` Its session secret is in ${wroteSessionSecret}.` : "") +
        (secretMovedAside ? ` The session secret that was there is in ${secretMovedAside}.` : "") +
        " Start the server: it applies any newer migrations.",
    );
  } catch (error) {
    if (error instanceof DatabaseLockedError) throw runningServer(error);
    if (error instanceof BackupRefusedError) throw new CommandFailedError(`refused (${error.code}): ${error.message}`);
    throw error;
  }
}
