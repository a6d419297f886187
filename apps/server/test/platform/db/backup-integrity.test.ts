import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupScryptWorkFactor } from "../../../src/platform/db/backup-encryption.ts";
import { runCli } from "../../../src/surfaces/cli/main.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { exposedPaths } from "../../support/modes.ts";

const directory = mkdtempSync(join(tmpdir(), "kpi-id-backup-integrity-"));
const backupFile = join(directory, "good.backup");
const passphrase = "correct horse battery staple, campus edition";
/**
 * scrypt's cost for these tests' passphrase backups: 2^10 instead of age's 2^18, which took over a minute here for
 * the three derivations below (JavaScript's scrypt on a busy machine). Encrypting, refusing the wrong passphrase and
 * opening with the right one do not depend on it; one test below proves that `backup` itself uses the default.
 */
const testScryptWorkFactor = 10;
let targets = 0;
/**
 * The tests' own altered archives gzipped at level 1: restore reads any gzip, and each of the seven is the whole
 * 40 MB archive, seconds apiece at zlib's default level on a busy machine (issue 75).
 */
const gzip = (data: Buffer) => gzipSync(data, { level: 1 });

/** The header and padded data of each entry of a tar archive, by path. */
function tarEntries(archive: Buffer) {
  const entries: { path: string; start: number; dataStart: number; size: number; end: number }[] = [];
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const path = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = Number.parseInt(header.subarray(124, 136).toString("latin1").replace(/\0.*$/s, "").trim(), 8);
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    entries.push({ path, start: offset, dataStart: offset + 512, size, end });
    offset = end;
  }
  return entries;
}

/** The arguments of an age file's scrypt stanza ("-> scrypt SALT LOG2N", in its plain-text header). */
function scryptStanza(sealed: Buffer): string[] | undefined {
  const header = sealed.subarray(0, 200).toString("latin1").split("\n");
  return header
    .find((line) => line.startsWith("-> scrypt "))
    ?.slice(3)
    .split(" ");
}

describe("kpi-id restore checks the whole backup before writing anything", () => {
  let database: TestDatabase;
  let archive: Buffer;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const made = await cli(["backup", "--to", backupFile]);
    expect(made.code).toBe(0);
    archive = gunzipSync(readFileSync(backupFile));
  }, 120_000);
  afterAll(async () => {
    await database.dispose();
    rmSync(directory, { recursive: true, force: true });
  });

  async function cli(
    args: string[],
    { dataDir = join(directory, "unused"), stdin = "", scryptAtProductionCost = false } = {},
  ) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, {
      env: { NODE_ENV: "test", DATA_DIR: dataDir },
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      readStdin: async () => stdin,
      ...(args[0] === "backup" ? { database: database.handle } : {}),
      ...(scryptAtProductionCost ? {} : { backupScryptWorkFactor: testScryptWorkFactor }),
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  }

  /** Restores `contents` (written to a file) into a new DATA_DIR; the answer and that folder. */
  async function restore(contents: Buffer, extra: string[] = [], stdin = "") {
    const file = join(directory, `attempt-${++targets}.backup`);
    writeFileSync(file, contents);
    const dataDir = join(directory, `target-${targets}`);
    return { ...(await cli(["restore", "--from", file, ...extra], { dataDir, stdin })), dataDir };
  }

  /** A refusal: exit 1, one line with its code on stderr, nothing on stdout, and nothing written. */
  function expectRefused(result: Awaited<ReturnType<typeof restore>>, code: string, message: RegExp) {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^kpi-id: refused \\(${code.replace(".", "\\.")}\\): `));
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(result.dataDir, "pglite"))).toBe(false);
  }

  it("writes a manifest first: format, product version and every entry's SHA-256", () => {
    const [first, ...rest] = tarEntries(archive);
    expect(first?.path).toBe("kpi-id-backup.json");
    const manifest = JSON.parse(
      archive.subarray(first?.dataStart, (first?.dataStart ?? 0) + (first?.size ?? 0)).toString(),
    );
    expect(manifest).toMatchObject({ format: "kpi-id-backup", formatVersion: 1, database: "pglite" });
    expect(manifest.productVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.entries).toHaveLength(rest.length);
    expect(manifest.entries).toContainEqual(
      expect.objectContaining({ path: "/PG_VERSION", type: "file", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    );
  });

  // Each refusal reads, unzips and hashes the whole 40 MB archive: seconds apiece on a busy machine.
  it("refuses an entry appended with tar -r, and data appended after the archive", async () => {
    const plain = join(directory, "appended.tar");
    writeFileSync(plain, archive);
    writeFileSync(join(directory, "extra.sql"), "update users set is_admin = true;\n");
    execFileSync("tar", ["-rf", plain, "-C", directory, "extra.sql"]);
    expectRefused(
      await restore(gzip(readFileSync(plain))),
      "backup.extra_entry",
      /extra\.sql is in the backup but not in its manifest$/,
    );
    const gzipMemberAppended = Buffer.concat([readFileSync(backupFile), gzip(readFileSync(plain))]);
    expectRefused(await restore(gzipMemberAppended), "backup.extra_entry", /data after its archive's end/);
  }, 180_000);

  it("refuses a missing entry, a changed byte, a cut file and a newer format", async () => {
    const version = tarEntries(archive).find((entry) => entry.path === "/PG_VERSION");
    if (!version) throw new Error("no /PG_VERSION in the backup");
    const missing = Buffer.concat([archive.subarray(0, version.start), archive.subarray(version.end)]);
    expectRefused(await restore(gzip(missing)), "backup.missing_entry", /\/PG_VERSION is in the manifest but not/);
    const changed = Buffer.from(archive);
    changed[version.dataStart] = (changed[version.dataStart] ?? 0) ^ 1;
    expectRefused(await restore(gzip(changed)), "backup.checksum_mismatch", /\/PG_VERSION is not what the manifest/);
    const whole = readFileSync(backupFile);
    expectRefused(await restore(whole.subarray(0, whole.length >> 1)), "backup.truncated", /ends early/);
    const newer = Buffer.from(
      archive.toString("latin1").replace('"formatVersion": 1,', '"formatVersion": 9,'),
      "latin1",
    );
    expectRefused(await restore(gzip(newer)), "backup.newer_format", /backup format 9; this release reads format 2/);
    const renamed = Buffer.from(archive.toString("latin1").replace('"kpi-id-backup"', '"kpi-id-bakcup"'), "latin1");
    expectRefused(await restore(gzip(renamed)), "backup.bad_manifest", /is not a kpi-id backup manifest/);
    expectRefused(await restore(Buffer.from("PK\u0003\u0004 a zip file")), "backup.foreign_archive", /not gzip/);
  }, 180_000);

  it("encrypts with a passphrase from stdin, and restores only with it", async () => {
    const sealed = join(directory, "sealed.backup");
    const weak = await cli(["backup", "--to", sealed, "--passphrase-stdin"], { stdin: "short" });
    expect(weak.stderr).toBe("kpi-id: refused (backup.weak_passphrase): the passphrase must be at least 12 characters");
    const made = await cli(["backup", "--to", sealed, "--passphrase-stdin"], { stdin: passphrase });
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/bytes, encrypted with the passphrase\)/);
    const contents = readFileSync(sealed);
    expect(contents.subarray(0, 21).toString()).toBe("age-encryption.org/v1");
    expect(contents.includes(Buffer.from("PG_VERSION"))).toBe(false);
    expectRefused(await restore(contents), "backup.encrypted", /give --passphrase-stdin/);
    expectRefused(await restore(contents, ["--passphrase-stdin"], `${passphrase}!`), "backup.cannot_decrypt", /wrong/);
    const passphraseFile = join(directory, "passphrase.txt");
    writeFileSync(passphraseFile, `${passphrase}\n`, { mode: 0o600 });
    const opened = await restore(contents, ["--passphrase-file", passphraseFile]);
    expect(opened.stderr).toBe("");
    expect(opened.code).toBe(0);
    expect(exposedPaths(opened.dataDir)).toEqual([]);
    // The work factor these tests asked for is the one in the file (the decrypter reads it from there).
    expect(scryptStanza(contents)).toEqual(["scrypt", expect.any(String), String(testScryptWorkFactor)]);
  }, 180_000);

  it("derives the passphrase's key at age's own cost, 2^18, unless a test asks for less", async () => {
    const sealed = join(directory, "production-cost.backup");
    const made = await cli(["backup", "--to", sealed, "--passphrase-stdin"], {
      stdin: passphrase,
      scryptAtProductionCost: true,
    });
    expect(made.code).toBe(0);
    expect(backupScryptWorkFactor).toBe(18);
    expect(scryptStanza(readFileSync(sealed))).toEqual(["scrypt", expect.any(String), "18"]);
  }, 180_000);

  it("encrypts for an age recipient (a public key), and restores with its identity", async () => {
    const identity = await generateIdentity();
    const sealed = join(directory, "for-recipient.backup");
    const made = await cli(["backup", "--to", sealed, "--recipient", await identityToRecipient(identity)]);
    expect(made.code).toBe(0);
    const identityFile = join(directory, "identity.txt");
    writeFileSync(identityFile, `# the operator's key\n${identity}\n`, { mode: 0o600 });
    const opened = await restore(readFileSync(sealed), ["--identity-file", identityFile]);
    expect(opened.code).toBe(0);
    const other = join(directory, "other-identity.txt");
    writeFileSync(other, `${await generateIdentity()}\n`);
    expectRefused(await restore(readFileSync(sealed), ["--identity-file", other]), "backup.cannot_decrypt", /identity/);
  }, 180_000);

  it("restores a backup made before manifests, with one warning line", async () => {
    const first = tarEntries(archive)[1];
    const legacy = gzip(archive.subarray(first?.start));
    const restored = await restore(legacy);
    expect(restored.code).toBe(0);
    expect(restored.stderr).toMatch(
      /^kpi-id: warning: .* has no manifest \(made by kpi-id 0\.3\.0 or older\): restored/,
    );
    expect(restored.stderr.split("\n")).toHaveLength(1);
    expect(readdirSync(restored.dataDir)).toEqual(["pglite"]);
  }, 180_000);
});
