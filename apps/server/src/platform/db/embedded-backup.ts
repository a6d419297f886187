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
import { generatedSessionSecretFile } from "../config/secrets.ts";
import { type BackupManifest, checkBackup, packBackup } from "./backup-archive.ts";
import { type BackupKey, type BackupOpener, decryptBackup, encryptBackup, isEncrypted } from "./backup-encryption.ts";
import { BackupRefusedError } from "./backup-refusal.ts";
import { privateDirectoryMode, privateFileMode, protectDataDir, restrictTree } from "./data-dir-modes.ts";
import { type DatabaseHandle, loadPglite, openDatabase } from "./index.ts";
import { acquireLockFile } from "./lock-file.ts";
import type { Db } from "./schema.ts";

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
  {
    productVersion,
    key,
    now = new Date(),
    sessionSecret,
    scryptWorkFactor,
  }: {
    productVersion: string;
    key?: BackupKey;
    now?: Date;
    sessionSecret?: string;
    /** Tests only (backupScryptWorkFactor says why); without it, age's default. */
    scryptWorkFactor?: number;
  },
): Promise<number> {
  if (database.kind !== "pglite" || !database.dumpDataDir) {
    throw new BackupRefusedError(
      "backup.postgres",
      "only the embedded database is backed up by kpi-id backup; PostgreSQL has pg_dump",
    );
  }
  const databaseTar = Buffer.from(await (await database.dumpDataDir()).arrayBuffer());
  const compressed = gzipSync(packBackup(databaseTar, productVersion, now, sessionSecret));
  const contents = key ? await encryptBackup(compressed, key, scryptWorkFactor) : compressed;
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
  /** Where the session secret the backup carried was written (DATA_DIR/session.secret), when it was. */
  wroteSessionSecret?: string;
  /** Where a different session.secret that was in DATA_DIR was moved to. */
  secretMovedAside?: string;
}

/**
 * Told the restored database (open, before anything is put in place) and the session secret the backup carries:
 * refuses (BackupRefusedError) when the secret the server will run with does not open its sealed values, and
 * answers whether the carried secret is to be written into DATA_DIR (it is the one the server will use).
 */
export type RestoredSecretCheck = (db: Db, carriedSecret: string | undefined) => Promise<{ installCarried: boolean }>;

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
  options: {
    replace?: boolean;
    now?: Date;
    opener?: BackupOpener;
    warn?: (line: string) => void;
    checkSecret?: RestoredSecretCheck;
  } = {},
): Promise<RestoreResult> {
  const { replace = false, now = new Date(), opener, warn, checkSecret } = options;
  const { databaseTar, manifest, sessionSecret } = checkBackup(await openBackupFile(file, opener));
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
    const { installCarried } = await writeDatabase(staging, databaseTar, (db) =>
      checkSecret ? checkSecret(db, sessionSecret) : Promise.resolve({ installCarried: false }),
    );
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
    const stamp = now.toISOString().replace(/[:.]/g, "-");
    const secret = installCarried && sessionSecret !== undefined ? installSecret(dataDir, sessionSecret, stamp) : {};
    renameSync(staging, target);
    return { movedAside, manifest, ...secret };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/**
 * The carried session secret written as DATA_DIR/session.secret (0600, beside its place and renamed); a
 * different one already there is moved aside, never overwritten (it may be the only key to something else).
 */
function installSecret(dataDir: string, secret: string, stamp: string) {
  const file = generatedSessionSecretFile(dataDir);
  let secretMovedAside: string | undefined;
  if (existsSync(file) && readFileSync(file, "utf8").trim() !== secret.trim()) {
    secretMovedAside = `${file}.before-restore-${stamp}`;
    renameSync(file, secretMovedAside);
  }
  const partial = `${file}.partial-${randomBytes(6).toString("hex")}`;
  writeFileSync(partial, secret, { mode: privateFileMode, flag: "wx" });
  renameSync(partial, file);
  return { wroteSessionSecret: file, secretMovedAside };
}

/**
 * PGlite's dump loaded into `folder` (a new one, 0700) and queried once: a dump PGlite cannot load is refused.
 * `check` is then told the open database (the session secret's check), before the caller puts anything in place.
 */
async function writeDatabase<T>(folder: string, databaseTar: Buffer, check: (db: Db) => Promise<T>): Promise<T> {
  const { PGlite, extensions } = await loadPglite();
  let pglite: Awaited<ReturnType<typeof PGlite.create>> | undefined;
  let checked: T;
  try {
    try {
      pglite = await PGlite.create(folder, { extensions, loadDataDir: new Blob([new Uint8Array(databaseTar)]) });
      // The restored database must answer before the command says it is done.
      await pglite.query("select count(*) from schema_migrations");
    } catch {
      throw new BackupRefusedError(
        "backup.not_loadable",
        "the backup passed its checks but the embedded database cannot open it (made by another PGlite version?)",
      );
    }
    const handle = await openDatabase({ dataDir: folder, pglite });
    try {
      checked = await check(handle.db);
    } finally {
      await handle.close();
    }
  } finally {
    await pglite?.close().catch(() => {});
  }
  chmodSync(folder, privateDirectoryMode);
  restrictTree(folder, { whole: true });
  return checked;
}
