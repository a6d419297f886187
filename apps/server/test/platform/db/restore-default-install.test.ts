import { createPublicKey, verify } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as client from "openid-client";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/platform/config/index.ts";
import { postJson } from "../../support/app.ts";
import { addPerson, sessionCookieFrom } from "../../support/campus.ts";
import { migratedDataDirOnDisk } from "../../support/databases.ts";
import { freePort } from "../../support/listening.ts";
import { addAuthenticator } from "../../support/mfa.ts";
import { signInToApplication } from "../../support/oidc.ts";
import { kpiIdCli, onDiskService } from "../../support/on-disk-service.ts";

// The default install: the embedded database and no SESSION_SECRET, so the server generated its session secret
// into DATA_DIR/session.secret. Its backup carries that secret, and a restore into a new folder signs people in.

const directory = mkdtempSync(join(tmpdir(), "kpi-id-restore-default-"));
const original = join(directory, "original");
const password = "a passphrase for the default install";

/** An ID token's RS256 signature checked against the issuer's published keys (the JWKS a client fetches). */
async function verifiesAgainstJwks(idToken: string, jwksUri: string): Promise<string> {
  const [header = "", payload = "", signature = ""] = idToken.split(".");
  const { kid } = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { kid: string };
  const { keys } = (await (await fetch(jwksUri)).json()) as { keys: { kid: string }[] };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`the issuer publishes no key ${kid}`);
  const key = createPublicKey({ key: jwk, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"))) {
    throw new Error("the ID token's signature does not verify");
  }
  return kid;
}

describe("restoring the default install (session secret generated into DATA_DIR)", () => {
  const service = onDiskService(freePort());
  afterAll(async () => {
    await service.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  /** The service as `npm start` runs it: no SESSION_SECRET, the embedded database in `dataDir`. */
  async function start(dataDir: string) {
    const started = await service.start(dataDir, (env) =>
      loadConfig({ NODE_ENV: "test", ...env, LOG_LEVEL: "silent", WEB_DIST_DIR: "/nonexistent-web-dist" }),
    );
    return { ...started, env: { NODE_ENV: "test", ...started.env } };
  }
  const stop = service.stop;
  const cli = kpiIdCli;

  it("carries the secret, and the restored install signs people in with their authenticator", async () => {
    // Its database starts migrated, its session secret not yet made: the first start makes the secret
    // (data-dir-modes.test.ts starts a whole fresh install).
    await migratedDataDirOnDisk(original);
    const before = await start(original);
    expect(existsSync(join(original, "session.secret"))).toBe(true);
    const person = await addPerson(
      before.app,
      { username: "defaulted", fullName: "Людина За Замовчуванням" },
      password,
    );
    const headers = { origin: before.origin };
    const signedIn = await postJson(before.app, "/api/auth", { username: "defaulted", password }, { headers });
    const grant = await postJson(
      before.app,
      "/api/auth/internal",
      { sessionId: signedIn.json().sessionId },
      { headers },
    );
    const oidc = await signInToApplication(
      before,
      { id: person.id, cookie: sessionCookieFrom(grant) },
      "https://rp.example.org/cb",
    );
    const signedWith = await verifiesAgainstJwks(oidc.tokens.id_token as string, `${before.issuer}/jwks`);
    const codeAt = await addAuthenticator(before.app, person, new Date());
    await stop();

    const backupFile = join(directory, "default.backup");
    const backup = await cli(["backup", "--to", backupFile], before.env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("The session secret generated into DATA_DIR (session.secret) is in it");
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    // A new machine: an empty DATA_DIR, no SESSION_SECRET.
    const restored = join(directory, "restored");
    const restore = await cli(["restore", "--from", backupFile], { NODE_ENV: "test", DATA_DIR: restored });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Its session secret is in ${join(restored, "session.secret")}`);
    expect(readFileSync(join(restored, "session.secret"), "utf8")).toBe(
      readFileSync(join(original, "session.secret"), "utf8"),
    );
    expect(statSync(join(restored, "session.secret")).mode & 0o777).toBe(0o600);
    rmSync(original, { recursive: true });

    const after = await start(restored);
    const auth = await postJson(after.app, "/api/auth", { username: "defaulted", password }, { headers });
    expect(auth.json().secondFactor).toBe("totp");
    const second = await postJson(
      after.app,
      "/api/auth/second-factor",
      { sessionId: auth.json().sessionId, code: await codeAt(new Date(Date.now() + 30_000)) },
      { headers },
    );
    expect(second.statusCode).toBe(200);
    // The token issued before the backup verifies against the restored JWKS, and a new one is signed by the
    // restored key (a refresh: the restored server opens its sealed private key).
    expect(await verifiesAgainstJwks(oidc.tokens.id_token as string, `${after.issuer}/jwks`)).toBe(signedWith);
    const refreshed = await client.refreshTokenGrant(oidc.config, oidc.tokens.refresh_token as string);
    expect(await verifiesAgainstJwks(refreshed.id_token as string, `${after.issuer}/jwks`)).toBe(signedWith);
    await stop();
  }, 180_000);

  it("refuses, before writing anything, a restore whose session secret opens nothing, naming what is missing", async () => {
    const restored = join(directory, "restored");
    const withoutSecret = join(directory, "without-secret.backup");
    const made = await cli(["backup", "--to", withoutSecret, "--without-secret"], {
      NODE_ENV: "test",
      DATA_DIR: restored,
    });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("DATA_DIR/session.secret is not in it (--without-secret): keep it separately.");

    const fresh = join(directory, "fresh");
    const missing = await cli(["restore", "--from", withoutSecret], { NODE_ENV: "test", DATA_DIR: fresh });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^kpi-id: refused \(backup\.session_secret_missing\): the backup holds 1 OpenID Connect signing key\(s\), 1 authenticator-app secret\(s\) sealed with a session secret it does not carry [^\n]+$/,
    );
    expect(existsSync(fresh) ? readdirSync(fresh) : []).toEqual([]);

    const wrong = await cli(["restore", "--from", withoutSecret], {
      NODE_ENV: "test",
      DATA_DIR: fresh,
      SESSION_SECRET: "a-different-session-secret-0123456789-abcdefgh",
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^kpi-id: refused \(backup\.session_secret_mismatch\): SESSION_SECRET does not open 1 OpenID Connect signing key\(s\)[^\n]+$/,
    );
    expect(existsSync(fresh) ? readdirSync(fresh) : []).toEqual([]);

    // With the secret it was made with (restored's session.secret), the same backup restores.
    const right = await cli(["restore", "--from", withoutSecret], {
      NODE_ENV: "test",
      DATA_DIR: fresh,
      SESSION_SECRET: readFileSync(join(restored, "session.secret"), "utf8").trim(),
    });
    expect(right.stderr).toBe("");
    expect(right.code).toBe(0);
    expect(readdirSync(fresh)).toEqual(["pglite"]);
  }, 120_000);
});
