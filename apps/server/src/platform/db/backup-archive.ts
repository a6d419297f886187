import { createHash } from "node:crypto";
import { BackupRefusedError } from "./backup-refusal.ts";

// The archive `kpi-id backup` writes (before gzip and optional encryption): a tar whose first entry is
// kpi-id-backup.json, the manifest, followed byte for byte by PGlite's own dump of its files (also a tar, its
// paths absolute: /PG_VERSION, /base/5/1259, ...). The manifest lists every entry after it with its size and
// SHA-256, so a restore refuses anything added, missing or changed before it writes a byte. `tar -tzvf` lists it.
// A backup of an install whose session secret was generated into DATA_DIR carries it as the second entry,
// session.secret (format 2: an older release refuses it as newer instead of restoring it without its secret).

export const manifestName = "kpi-id-backup.json";
const manifestFormat = "kpi-id-backup";
/** The archive layout this release writes; a restore refuses a newer one (it cannot know what it holds). */
export const backupFormatVersion = 2;
/** The format of a backup without the session secret: what kpi-id 0.3 (format 1) still restores. */
const formatWithoutSecret = 1;
export const sessionSecretEntry = "session.secret";

const block = 512;

export interface ManifestEntry {
  path: string;
  type: "file" | "directory";
  size: number;
  sha256?: string;
}

export interface BackupManifest {
  format: typeof manifestFormat;
  formatVersion: number;
  productVersion: string;
  createdAt: string;
  database: "pglite";
  /** The session secret generated into DATA_DIR, carried as the entry `session.secret` (format 2). */
  sessionSecret?: ManifestEntry;
  entries: ManifestEntry[];
}

interface TarEntry extends ManifestEntry {
  /** Offset of the entry's header in the archive. */
  offset: number;
  data: Buffer;
}

const refuse = (code: ConstructorParameters<typeof BackupRefusedError>[0], message: string): never => {
  throw new BackupRefusedError(code, message);
};

const text = (field: Buffer) => {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString("utf8");
};

function octal(field: Buffer): number {
  const digits = text(field).trim();
  if (!/^[0-7]*$/.test(digits)) refuse("backup.foreign_archive", "not a kpi-id backup (a tar header is damaged)");
  return digits === "" ? 0 : Number.parseInt(digits, 8);
}

function headerChecksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let index = 0; index < block; index++) sum += index >= 148 && index < 156 ? 32 : (header[index] ?? 0);
  return sum === octal(header.subarray(148, 156));
}

/**
 * Every entry of a ustar archive, and where its end-of-archive blocks start. Only files and folders with
 * absolute paths free of `..` are accepted (nothing a restore could write outside its folder through).
 */
function readTar(archive: Buffer): { entries: TarEntry[]; end: number } {
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    if (offset + block > archive.length) refuse("backup.truncated", "the backup ends before its archive does");
    const header = archive.subarray(offset, offset + block);
    if (header.every((byte) => byte === 0)) break;
    // POSIX ustar ("ustar\0", what PGlite and this file write) or GNU tar's ("ustar  ", no path prefix field).
    const magic = header.subarray(257, 263).toString("latin1");
    if ((magic !== "ustar\0" && magic !== "ustar ") || !headerChecksumOk(header)) {
      refuse("backup.foreign_archive", "not a kpi-id backup (not the tar archive it writes)");
    }
    const prefix = magic === "ustar\0" ? text(header.subarray(345, 500)) : "";
    const name = text(header.subarray(0, 100));
    const path = prefix === "" ? name : `${prefix}/${name}`;
    const size = octal(header.subarray(124, 136));
    const flag = String.fromCharCode(header[156] ?? 0);
    const type = flag === "5" ? "directory" : flag === "0" || flag === "\0" ? "file" : undefined;
    if (type === undefined) refuse("backup.foreign_archive", `not a kpi-id backup (${path} is not a file or folder)`);
    const start = offset + block;
    if (start + size > archive.length) refuse("backup.truncated", `the backup ends inside ${path}`);
    entries.push({ path, type: type ?? "file", size, offset, data: archive.subarray(start, start + size) });
    offset = start + Math.ceil(size / block) * block;
  }
  return { entries, end: offset };
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

const describe = (entry: TarEntry): ManifestEntry =>
  entry.type === "file"
    ? { path: entry.path, type: "file", size: entry.size, sha256: sha256(entry.data) }
    : { path: entry.path, type: "directory", size: 0 };

/** A ustar header for one regular file (the manifest), its mode 0600. */
function fileHeader(name: string, size: number, mtime: Date): Buffer {
  const header = Buffer.alloc(block);
  const put = (value: string, at: number, length: number) => header.write(value, at, length, "utf8");
  const number = (value: number, length: number) => value.toString(8).padStart(length - 1, "0");
  put(name, 0, 100);
  put(number(0o600, 8), 100, 8);
  put(number(0, 8), 108, 8);
  put(number(0, 8), 116, 8);
  put(number(size, 12), 124, 12);
  put(number(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put("        ", 148, 8);
  put("0", 156, 1);
  put("ustar\u000000", 257, 8);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${number(sum, 7)}\0`, 148, 8);
  return header;
}

/** One regular file's header, contents and padding to the next block. */
function fileEntry(name: string, body: Buffer, now: Date): Buffer {
  const padding = Buffer.alloc((block - (body.length % block)) % block);
  return Buffer.concat([fileHeader(name, body.length, now), body, padding]);
}

/** The archive: the manifest, the session secret when carried, then `databaseTar` itself. */
export function packBackup(databaseTar: Buffer, productVersion: string, now: Date, sessionSecret?: string): Buffer {
  const secret = sessionSecret === undefined ? undefined : Buffer.from(sessionSecret, "utf8");
  const manifest: BackupManifest = {
    format: manifestFormat,
    formatVersion: secret ? backupFormatVersion : formatWithoutSecret,
    productVersion,
    createdAt: now.toISOString(),
    database: "pglite",
    ...(secret
      ? { sessionSecret: { path: sessionSecretEntry, type: "file", size: secret.length, sha256: sha256(secret) } }
      : {}),
    entries: readTar(databaseTar).entries.map(describe),
  };
  const body = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, "utf8");
  const secretPart = secret ? fileEntry(sessionSecretEntry, secret, now) : Buffer.alloc(0);
  return Buffer.concat([fileEntry(manifestName, body, now), secretPart, databaseTar]);
}

const isEntry = (value: unknown): value is ManifestEntry => {
  const entry = value as Partial<ManifestEntry> | null;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.path === "string" &&
    (entry.type === "file" || entry.type === "directory") &&
    typeof entry.size === "number" &&
    (entry.sha256 === undefined || typeof entry.sha256 === "string")
  );
};

function parseManifest(data: Buffer): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(data.toString("utf8")) as Partial<BackupManifest>;
  } catch {
    return refuse("backup.bad_manifest", `${manifestName} is not JSON`);
  }
  if (
    manifest.format !== manifestFormat ||
    !Array.isArray(manifest.entries) ||
    !manifest.entries.every(isEntry) ||
    (manifest.sessionSecret !== undefined && !isEntry(manifest.sessionSecret))
  ) {
    refuse("backup.bad_manifest", `${manifestName} is not a kpi-id backup manifest`);
  }
  if (typeof manifest.formatVersion !== "number" || manifest.formatVersion > backupFormatVersion) {
    refuse(
      "backup.newer_format",
      `made by kpi-id ${manifest.productVersion ?? "?"} in backup format ${manifest.formatVersion}; ` +
        `this release reads format ${backupFormatVersion}: restore it with that release or newer`,
    );
  }
  return manifest as BackupManifest;
}

const safePath = (path: string) => path.startsWith("/") && !path.split("/").includes("..") && !path.includes("\\");

/** Refuses entries an embedded database never has: outside its folder, twice, or without PG_VERSION. */
function checkDatabaseEntries(entries: TarEntry[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!safePath(entry.path)) {
      refuse("backup.foreign_archive", `not a kpi-id backup (${entry.path} is not inside a database folder)`);
    }
    if (seen.has(entry.path)) refuse("backup.extra_entry", `${entry.path} is in the backup twice`);
    seen.add(entry.path);
  }
  if (!seen.has("/PG_VERSION")) refuse("backup.foreign_archive", "not a kpi-id backup (no database in it)");
}

function checkAgainstManifest(entries: TarEntry[], manifest: BackupManifest): void {
  const listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  for (const entry of entries) {
    const expected = listed.get(entry.path);
    if (!expected) refuse("backup.extra_entry", `${entry.path} is in the backup but not in its manifest`);
    const actual = describe(entry);
    if (expected?.type !== actual.type || expected.size !== actual.size || expected.sha256 !== actual.sha256) {
      refuse("backup.checksum_mismatch", `${entry.path} is not what the manifest says (size or SHA-256)`);
    }
    listed.delete(entry.path);
  }
  const [missing] = listed.keys();
  if (missing !== undefined) refuse("backup.missing_entry", `${missing} is in the manifest but not in the backup`);
}

export interface CheckedBackup {
  /** PGlite's own dump, for `loadDataDir`. */
  databaseTar: Buffer;
  /** Undefined for a backup made before manifests (kpi-id 0.3 and older). */
  manifest?: BackupManifest;
  /** The session secret generated into DATA_DIR, when the backup carries it. */
  sessionSecret?: string;
}

/** The carried session secret (the entry after the manifest), checked against the manifest; else undefined. */
function carriedSecret(entries: TarEntry[], manifest: BackupManifest): string | undefined {
  const expected = manifest.sessionSecret;
  if (expected === undefined) return undefined;
  const [entry] = entries;
  if (entry?.path !== sessionSecretEntry) {
    return refuse("backup.missing_entry", `${sessionSecretEntry} is in the manifest but not in the backup`);
  }
  const actual = describe(entry);
  if (actual.type !== expected.type || actual.size !== expected.size || actual.sha256 !== expected.sha256) {
    refuse("backup.checksum_mismatch", `${sessionSecretEntry} is not what the manifest says (size or SHA-256)`);
  }
  return entry.data.toString("utf8");
}

/**
 * The whole archive checked before anything is written: its manifest, every entry against it (nothing extra,
 * nothing missing, every SHA-256), and nothing after its end. A backup from before manifests (PGlite's dump
 * alone) is accepted when it is a sound database dump, and said so (`manifest` undefined).
 */
export function checkBackup(archive: Buffer): CheckedBackup {
  const { entries, end } = readTar(archive);
  if (archive.subarray(end).some((byte) => byte !== 0)) {
    refuse("backup.extra_entry", "the backup holds data after its archive's end (appended entries?)");
  }
  const [first, ...rest] = entries;
  if (first === undefined) refuse("backup.foreign_archive", "not a kpi-id backup (an empty archive)");
  if (first?.path !== manifestName) {
    checkDatabaseEntries(entries);
    return { databaseTar: archive };
  }
  const manifest = parseManifest(first.data);
  const sessionSecret = carriedSecret(rest, manifest);
  const database = sessionSecret === undefined ? rest : rest.slice(1);
  checkAgainstManifest(database, manifest);
  checkDatabaseEntries(database);
  const [start] = database;
  return { databaseTar: archive.subarray(start ? start.offset : end), manifest, sessionSecret };
}
