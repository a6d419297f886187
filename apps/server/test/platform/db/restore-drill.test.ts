import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as client from "openid-client";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/surfaces/cli/main.ts";
import { postJson, testConfig } from "../../support/app.ts";
import { addPerson, sessionCookieFrom } from "../../support/campus.ts";
import { migratedDataDirOnDisk } from "../../support/databases.ts";
import { freePort } from "../../support/listening.ts";
import { addAuthenticator } from "../../support/mfa.ts";
import { exposedPaths, loosen } from "../../support/modes.ts";
import { signInToApplication } from "../../support/oidc.ts";
import { kpiIdCli, onDiskService } from "../../support/on-disk-service.ts";
import { scim, scimToken } from "../../support/scim.ts";

const directory = mkdtempSync(join(tmpdir(), "kpi-id-restore-drill-"));
const dataDir = join(directory, "data");
const backupFile = join(directory, "kpi-id.backup");
const password = "a passphrase that outlives its database";
const secret = "restore-drill-session-secret-0123456789-abcdef";

describe("restore drill on the embedded database", () => {
  const service = onDiskService(freePort());
  afterAll(async () => {
    await service.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  /** The service on DATA_DIR with the drill's SESSION_SECRET. */
  async function start() {
    const started = await service.start(dataDir, (env) => testConfig({ ...env, SESSION_SECRET: secret }));
    return { ...started, env: { ...started.env, SESSION_SECRET: secret } };
  }
  const stop = service.stop;
  const cli = (args: string[], env: Record<string, string>) => kpiIdCli(args, { NODE_ENV: "test", ...env });
  const certificatesOf = (metadata: string) => [...metadata.matchAll(/<ds:X509Certificate>([^<]+)</g)].map((m) => m[1]);

  it("backs up, loses the data directory, restores, and everything still works", async () => {
    // Populate: a person with password and authenticator app, an OpenID Connect application holding a
    // refresh token (its client, grant and signing keys), a SAML key, a SCIM token, a session. The database starts
    // migrated (data-dir-modes.test.ts starts a fresh install); what the drill tests is what it holds.
    await migratedDataDirOnDisk(dataDir);
    const before = await start();
    const person = await addPerson(before.app, { username: "drilled", fullName: "Відновлена Людина" }, password);
    const signInHeaders = { origin: before.origin };
    const signedIn = await postJson(
      before.app,
      "/api/auth",
      { username: "drilled", password },
      { headers: signInHeaders },
    );
    const grant = await postJson(
      before.app,
      "/api/auth/internal",
      { sessionId: signedIn.json().sessionId },
      { headers: signInHeaders },
    );
    const sessionCookie = sessionCookieFrom(grant);
    const oidc = await signInToApplication(
      before,
      { id: person.id, cookie: sessionCookie },
      "https://rp.example.org/cb",
    );
    const codeAt = await addAuthenticator(before.app, person, new Date());
    const hr = await scimToken(before.app);
    const metadataBefore = (await before.app.inject({ url: "/saml/metadata" })).body;
    expect(certificatesOf(metadataBefore).length).toBeGreaterThan(0);
    await stop();

    // An older file at the backup's place, readable by all, is replaced by one only its owner reads.
    writeFileSync(backupFile, "an older backup", { mode: 0o644 });
    const backup = await cli(["backup", "--to", backupFile, "--json"], before.env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout).bytes).toBeGreaterThan(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory).filter((name) => name.includes(".partial-"))).toEqual([]);

    rmSync(join(dataDir, "pglite"), { recursive: true });
    expect(existsSync(join(dataDir, "pglite"))).toBe(false);
    // The loss left the rest of DATA_DIR readable by all, as a careless copy would: the restore corrects it.
    loosen(dataDir);
    const restore = await cli(["restore", "--from", backupFile], before.env);
    expect(restore.code).toBe(0);
    expect(restore.stderr).toMatch(/^kpi-id: warning: DATA_DIR .* was readable by other local accounts: made/);
    expect(restore.stderr.split("\n")).toHaveLength(1);
    expect(restore.stdout).toMatch(/^Restored .* \(kpi-id \d+\.\d+\.\d+, .*; every checksum matched\) into /);
    // The restored database: folders 0700, files 0600, whatever modes its files had when they were saved.
    expect(exposedPaths(dataDir)).toEqual([]);

    const after = await start();
    // The session from before the loss still answers.
    const user = await after.app.inject({ url: "/api/user", headers: { cookie: sessionCookie } });
    expect(user.statusCode).toBe(200);
    // Password, then the authenticator app's code (its secret sealed in the restored database).
    const auth = await postJson(after.app, "/api/auth", { username: "drilled", password }, { headers: signInHeaders });
    expect(auth.json().secondFactor).toBe("totp");
    const code = await codeAt(new Date(Date.now() + 30_000));
    const second = await postJson(
      after.app,
      "/api/auth/second-factor",
      { sessionId: auth.json().sessionId, code },
      { headers: signInHeaders },
    );
    expect(second.statusCode).toBe(200);
    // The application's refresh token is good with the restored client and signing keys.
    const refreshed = await client.refreshTokenGrant(oidc.config, oidc.tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.claims()?.sub).toBe(oidc.tokens.claims()?.sub);
    // SAML SPs keep trusting the same certificate.
    const metadataAfter = (await after.app.inject({ url: "/saml/metadata" })).body;
    expect(certificatesOf(metadataAfter)).toEqual(certificatesOf(metadataBefore));
    // The HR system's SCIM token still works.
    expect((await scim(after.app, hr, "/Users")).statusCode).toBe(200);
    // The whole drill starts the service three times: past the suite's 60 s when the machine runs other work beside
    // the test workers.
  }, 180_000);

  it("refuses to restore over a database that is there unless asked, and then keeps the old one aside", async () => {
    await stop();
    const env = { SESSION_SECRET: secret, DATA_DIR: dataDir };
    const refused = await cli(["restore", "--from", backupFile], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("holds a database: add --replace");
    const replaced = await cli(["restore", "--from", backupFile, "--replace", "--json"], env);
    expect(replaced.code).toBe(0);
    const { movedAside } = JSON.parse(replaced.stdout) as { movedAside: string };
    expect(existsSync(join(movedAside, "PG_VERSION"))).toBe(true);
  });

  it("refuses a foreign archive in one line, writes nothing, and a retry with the real backup works", async () => {
    await stop();
    // A gzipped tar of someone else's files, named like a backup.
    const foreignFiles = join(directory, "foreign");
    mkdirSync(join(foreignFiles, "etc"), { recursive: true });
    writeFileSync(join(foreignFiles, "etc", "hosts"), "127.0.0.1 localhost\n");
    const foreign = join(directory, "foreign.backup");
    execFileSync("tar", ["-czf", foreign, "-C", foreignFiles, "etc"]);
    // Into a new DATA_DIR without SESSION_SECRET (a newcomer's restore): not even a session secret is made.
    const freshDir = join(directory, "fresh");
    const env = { DATA_DIR: freshDir };
    const refused = await cli(["restore", "--from", foreign], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "kpi-id: refused (backup.foreign_archive): not a kpi-id backup (etc/ is not inside a database folder)",
    );
    expect(existsSync(freshDir) ? readdirSync(freshDir) : []).toEqual([]);
    // Over a database that is there, with --replace: the database stays where and as it was.
    const replaceEnv = { SESSION_SECRET: secret, DATA_DIR: dataDir };
    const before = readdirSync(dataDir).sort();
    const over = await cli(["restore", "--from", foreign, "--replace"], replaceEnv);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/^kpi-id: refused \(backup\.foreign_archive\): [^\n]+$/);
    expect(readdirSync(dataDir).sort()).toEqual(before);
    // The retry with the real backup is not refused by anything the failed one left (with the SESSION_SECRET
    // the backup was made with: it does not carry one, and nothing else opens its keys).
    const retry = await cli(["restore", "--from", backupFile], { ...env, SESSION_SECRET: secret });
    expect(retry.stderr).toBe("");
    expect(retry.code).toBe(0);
    expect(readdirSync(freshDir).sort()).toEqual(["pglite"]);
    expect(exposedPaths(freshDir)).toEqual([]);
  }, 120_000);

  it("says why it cannot copy while the server holds the database", async () => {
    const { env } = await start();
    const locked = await cli(["backup", "--to", join(directory, "while-running.backup")], env);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/the server \(process \d+\) has the embedded database open.*stop the server/);
    await stop();
  });
});

describe("backup and restore on PostgreSQL", () => {
  it("point to pg_dump and base backups instead", async () => {
    const env = { SESSION_SECRET: secret, DATABASE_URL: "postgres://kpi_id@127.0.0.1:5432/kpi_id" };
    const err: string[] = [];
    const io = { env, stdout: () => {}, stderr: (line: string) => err.push(line) };
    expect(await runCli(["backup", "--to", join(directory, "pg.backup")], io)).toBe(1);
    expect(err.join("\n")).toContain("pg_dump");
    expect(await runCli(["restore", "--from", backupFile], io)).toBe(1);
    expect(err.join("\n")).toContain("pg_restore");
  });
});
