import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { DatabaseHandle } from "./index.ts";
import { acquireLockFile } from "./lock-file.ts";

/** A backup or restore that cannot be done as asked; the message says what to do instead. */
export class BackupRefusedError extends Error {
  override name = "BackupRefusedError";
}

/**
 * `kpi-id backup --to FILE`: the embedded database's files, gzipped. PGlite copies them from inside its
 * one open connection, so the copy is consistent: the caller holds the database (the CLI holds its lock
 * file, so the server is not running meanwhile). Returns the file's size in bytes.
 */
export async function backupEmbeddedDatabase(database: DatabaseHandle, file: string): Promise<number> {
  if (database.kind !== "pglite" || !database.dumpDataDir) {
    throw new BackupRefusedError("only the embedded database is backed up by kpi-id backup; PostgreSQL has pg_dump");
  }
  const tar = Buffer.from(await (await database.dumpDataDir()).arrayBuffer());
  const compressed = gzipSync(tar);
  writeFileSync(file, compressed, { mode: 0o600 });
  return compressed.length;
}

const isEmptyDirectory = (path: string) => !existsSync(path) || readdirSync(path).length === 0;

/**
 * `kpi-id restore --from FILE` into DATA_DIR/pglite. Refuses while the server runs (the lock file) and,
 * unless `replace`, when a database is already there; with `replace` the old one is moved aside, never
 * deleted. Answers where the old one went, if anywhere.
 */
export async function restoreEmbeddedDatabase(
  dataDir: string,
  file: string,
  { replace = false, now = new Date() } = {},
): Promise<{ movedAside?: string }> {
  if (!existsSync(file)) throw new BackupRefusedError(`${file}: no such backup file`);
  let tar: Buffer;
  try {
    tar = gunzipSync(readFileSync(file));
  } catch {
    throw new BackupRefusedError(`${file}: not a backup made by kpi-id backup (not gzip)`);
  }
  mkdirSync(dataDir, { recursive: true });
  const release = acquireLockFile(join(dataDir, "pglite.lock"));
  try {
    const target = join(dataDir, "pglite");
    let movedAside: string | undefined;
    if (!isEmptyDirectory(target)) {
      if (!replace) {
        throw new BackupRefusedError(`${target} holds a database: add --replace to move it aside and restore`);
      }
      movedAside = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
      renameSync(target, movedAside);
    }
    const pglite = await PGlite.create(target, {
      extensions: { pg_trgm },
      loadDataDir: new Blob([new Uint8Array(tar)]),
    });
    // The restored database must answer before the command says it is done.
    await pglite.query("select count(*) from schema_migrations");
    await pglite.close();
    return { movedAside };
  } finally {
    release();
  }
}
