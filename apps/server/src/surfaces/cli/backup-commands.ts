import { loadConfig } from "../../platform/config/index.ts";
import {
  BackupRefusedError,
  backupEmbeddedDatabase,
  restoreEmbeddedDatabase,
} from "../../platform/db/embedded-backup.ts";
import { type DatabaseHandle, openDatabase } from "../../platform/db/index.ts";
import { DatabaseLockedError } from "../../platform/db/lock-file.ts";
import { parseOptions, required } from "./args.ts";
import { createOutput } from "./output.ts";
import { CommandFailedError } from "./usage.ts";

const runningServer = (error: DatabaseLockedError) =>
  new CommandFailedError(
    `the server (process ${error.holderPid}) has the embedded database open, and it admits one process: ` +
      "stop the server, run this again, start it (the copy takes seconds); an install that must not stop uses PostgreSQL",
  );

const postgresBackup =
  "DATABASE_URL is set: back up PostgreSQL with pg_dump, or pg_basebackup with WAL archiving (docs/operations.md, Backups)";
const postgresRestore =
  "DATABASE_URL is set: restore PostgreSQL with pg_restore or from a base backup (docs/operations.md, Backups)";

/**
 * `backup --to FILE` and `restore --from FILE [--replace]` for the embedded database. They run outside the
 * usual command path: that one opens and migrates the database first, and a restore must not open it.
 */
export async function runBackupCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  write: (line: string) => void,
  given?: DatabaseHandle,
): Promise<void> {
  const [command, ...args] = argv;
  const config = loadConfig(env);
  const postgres = config.database.url !== undefined;
  try {
    if (command === "backup") {
      const options = parseOptions(args, { to: { type: "string" } });
      const file = required(options, "to");
      if (postgres && !given) throw new BackupRefusedError(postgresBackup);
      const database = given ?? (await openDatabase({ dataDir: config.database.dataDir }));
      try {
        const bytes = await backupEmbeddedDatabase(database, file);
        createOutput(options.json === true, write).result(
          { file, bytes },
          `Backed up the embedded database in ${config.database.dataDir} to ${file} (${bytes} bytes). ` +
            "SESSION_SECRET is not in it: keep it separately.",
        );
      } finally {
        if (!given) await database.close();
      }
      return;
    }
    const options = parseOptions(args, { from: { type: "string" }, replace: { type: "boolean" } });
    const file = required(options, "from");
    if (postgres) throw new BackupRefusedError(postgresRestore);
    const { movedAside } = await restoreEmbeddedDatabase(config.database.dataDir, file, { replace: options.replace });
    createOutput(options.json === true, write).result(
      { file, dataDir: config.database.dataDir, movedAside },
      `Restored ${file} into ${config.database.dataDir}.` +
        (movedAside ? ` The database that was there is in ${movedAside}.` : "") +
        " Start the server: it applies any newer migrations.",
    );
  } catch (error) {
    if (error instanceof DatabaseLockedError) throw runningServer(error);
    if (error instanceof BackupRefusedError) throw new CommandFailedError(error.message);
    throw error;
  }
}
