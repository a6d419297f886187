import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { type BackupManifest, checkBackup, packBackup } from "./backup-archive.ts";
import { type BackupKey, type BackupOpener, decryptBackup, encryptBackup, isEncrypted } from "./backup-encryption.ts";
import { BackupRefusedError } from "./backup-refusal.ts";
import { privateDirectoryMode, privateFileMode, protectDataDir, restrictTree } from "./data-dir-modes.ts";
import { type DatabaseHandle, loadPglite } from "./index.ts";
import { acquireLockFile } from "./lock-file.ts";

export { BackupRefusedError } from "./backup-refusal.ts";

/**
 * `kpi-id backup --to FILE`: the embedded database's files with a manifest of their SHA-256 (backup-archive.ts),
 * gzipped, and encrypted when a key is given. PGlite copies them from inside its one open connection, so the
 * copy is consistent: the caller holds the database (the CLI holds its lock file). The file is written beside
 * its place, 0600, and renamed into it complete. Returns its size in bytes.
 */
export async function backupEmbeddedDatabase(
  database: DatabaseHandle,
  file: string,
  { productVersion, key, now = new Date() }: { productVersion: string; key?: BackupKey; now?: Date },
): Promise<number> {
  if (database.kind !== "pglite" || !database.dumpDataDir) {
    throw new BackupRefusedError(
      "backup.postgres",
      "only the embedded database is backed up by kpi-id backup; PostgreSQL has pg_dump",
    );
  }
  const databaseTar = Buffer.from(await (await database.dumpDataDir()).arrayBuffer());
  const compressed = gzipSync(packBackup(databaseTar, productVersion, now));
  const contents = key ? await encryptBackup(compressed, key) : compressed;
  const partial = join(dirname(file), `.${basename(file)}.partial-${randomBytes(6).toString("hex")}`);
  try {
    writeFileSync(partial, contents, { mode: privateFileMode, flag: "wx" });
    chmodSync(partial, privateFileMode);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return contents.length;
}

/** A file's contents as the archive inside, decrypted and decompressed; every failure a one-line refusal. */
async function openBackupFile(file: string, opener: BackupOpener | undefined): Promise<Buffer> {
  if (!existsSync(file)) throw new BackupRefusedError("backup.not_found", `${file}: no such backup file`);
  const read = readFileSync(file);
  const contents = isEncrypted(read) ? await decryptBackup(read, opener) : read;
  try {
    return gunzipSync(contents);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "Z_BUF_ERROR") {
      throw new BackupRefusedError("backup.truncated", `${file}: the backup ends early (a copy cut short?)`);
    }
    throw new BackupRefusedError("backup.foreign_archive", `${file}: not a backup made by kpi-id backup (not gzip)`);
  }
}

const isEmptyDirectory = (path: string) => !existsSync(path) || readdirSync(path).length === 0;
const restoringPrefix = "pglite.restoring-";

export interface RestoreResult {
  movedAside?: string;
  /** The backup's manifest; undefined for a backup made before manifests (restored with a warning). */
  manifest?: BackupManifest;
}

/**
 * `kpi-id restore --from FILE` into DATA_DIR/pglite. The whole file is checked first (backup-archive.ts), then
 * the database is written into a folder beside the target, opened once to prove it answers, made 0600/0700,
 * and only then renamed into place: a refusal or a failure leaves DATA_DIR as it was, and a retry works. Refuses
 * while the server runs (the lock file) and, unless `replace`, when a database is already there; with `replace`
 * the old one is moved aside, never deleted.
 */
export async function restoreEmbeddedDatabase(
  dataDir: string,
  file: string,
  options: { replace?: boolean; now?: Date; opener?: BackupOpener; warn?: (line: string) => void } = {},
): Promise<RestoreResult> {
  const { replace = false, now = new Date(), opener, warn } = options;
  const { databaseTar, manifest } = checkBackup(await openBackupFile(file, opener));
  const target = join(dataDir, "pglite");
  if (!replace && !isEmptyDirectory(target)) {
    throw new BackupRefusedError(
      "backup.target_holds_database",
      `${target} holds a database: add --replace to move it aside and restore`,
    );
  }
  mkdirSync(dataDir, { recursive: true, mode: privateDirectoryMode });
  const release = acquireLockFile(join(dataDir, "pglite.lock"));
  const staging = join(dataDir, `${restoringPrefix}${randomBytes(6).toString("hex")}`);
  try {
    protectDataDir(dataDir, warn ?? (() => {}));
    // A restore that died half-way left its folder; nothing else is named so, and the lock says none runs.
    for (const name of readdirSync(dataDir)) {
      if (name.startsWith(restoringPrefix)) rmSync(join(dataDir, name), { recursive: true, force: true });
    }
    await writeDatabase(staging, databaseTar);
    let movedAside: string | undefined;
    if (!isEmptyDirectory(target)) {
      if (!replace) {
        throw new BackupRefusedError(
          "backup.target_holds_database",
          `${target} holds a database: add --replace to move it aside and restore`,
        );
      }
      movedAside = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
      renameSync(target, movedAside);
    } else {
      rmSync(target, { recursive: true, force: true });
    }
    renameSync(staging, target);
    return { movedAside, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/** PGlite's dump loaded into `folder` (a new one, 0700) and queried once: a dump PGlite cannot load is refused. */
async function writeDatabase(folder: string, databaseTar: Buffer): Promise<void> {
  const { PGlite, extensions } = await loadPglite();
  let pglite: Awaited<ReturnType<typeof PGlite.create>> | undefined;
  try {
    pglite = await PGlite.create(folder, { extensions, loadDataDir: new Blob([new Uint8Array(databaseTar)]) });
    // The restored database must answer before the command says it is done.
    await pglite.query("select count(*) from schema_migrations");
  } catch {
    throw new BackupRefusedError(
      "backup.not_loadable",
      "the backup passed its checks but the embedded database cannot open it (made by another PGlite version?)",
    );
  } finally {
    await pglite?.close().catch(() => {});
  }
  chmodSync(folder, privateDirectoryMode);
  restrictTree(folder, { whole: true });
}
