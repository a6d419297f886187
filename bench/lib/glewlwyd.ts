import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort, TestBrowser } from "@kpi-id/server/testing";
import pg from "pg";
import { waitUntilAnswering } from "./child-server.ts";
import type { Client } from "./oidc-client.ts";

/**
 * Glewlwyd (github.com/babelouest/glewlwyd), a C OpenID Connect provider, as Debian's package installs it
 * (`apt-get install glewlwyd`), started by the bench in a temporary directory of its own: its own config file,
 * a scratch database on KPI ID's PostgreSQL server made with the package's own scripts, then set up the way its
 * documentation and its own tests (test/glewlwyd_oidc_refresh_token_one_use.c) do it, through its admin API.
 * PostgreSQL rather than SQLite, the simplest back end: the same server as KPI ID's, so the database is not a
 * difference. (Both back ends answer some requests 500 with 8 in flight: peer.bench.ts.)
 */
export const glewlwydBinary = "/usr/bin/glewlwyd";
const schemaScript = "/usr/share/dbconfig-common/data/glewlwyd/install/pgsql";
const firstRowsScript = "/usr/share/dbconfig-common/data/glewlwyd/install/postgre.default.sql";
const modulePaths = "/usr/lib/glewlwyd";
// The init script's administrator (docs/GETTING_STARTED.md): changed by nobody here, the server listens on loopback only.
const admin = { username: "admin", password: "password" };

export function glewlwydInstalled(): boolean {
  return existsSync(glewlwydBinary) && existsSync(schemaScript) && existsSync(firstRowsScript);
}

/** The package's version as dpkg knows it (the binary's --help names only the upstream one). */
export function glewlwydVersion(): string {
  try {
    // "glewlwyd<TAB>2.7.5-3+deb12u1"
    return execFileSync("dpkg-query", ["-W", "glewlwyd"], { encoding: "utf8" }).trim().split("\t")[1] ?? "?";
  } catch {
    return "of unknown version";
  }
}

export interface GlewlwydSettings {
  /** A PostgreSQL server's URL (DATABASE_URL): the bench makes its own database there and drops it afterwards. */
  adminDatabaseUrl: string;
  /** How long one password check of KPI ID's takes here: Glewlwyd's bcrypt cost is chosen to come closest. */
  argon2Ms: number;
  people: readonly { username: string; fullName: string }[];
  password: string;
  client: Client;
  redirectUri: string;
}

export interface RunningGlewlwyd {
  origin: string;
  pid: number;
  /** The bcrypt cost people's passwords are stored with, and one check's time at it, measured here. */
  bcryptCost: number;
  bcryptMs: number;
  stop(): Promise<void>;
}

function configFile(directory: string, port: number, databaseUrl: string): string {
  // Debian's /etc/glewlwyd/glewlwyd.conf, less what a loopback bench does not use (static files, mime types, TLS:
  // 2.7.5 refuses to start when use_secure_connection is present, even false, without certificate files).
  return `port=${port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:${port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="WARNING"
log_file="${join(directory, "glewlwyd.log")}"
cookie_secure=0
cookie_same_site="empty"
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
plugin_api_run_enabled=""
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="${modulePaths}/user"
client_module_path="${modulePaths}/client"
user_auth_scheme_module_path="${modulePaths}/scheme"
plugin_module_path="${modulePaths}/plugin"
hash_algorithm="SHA512"
database = { type = "postgre"; conninfo = "${databaseUrl}"; };
`;
}

async function query<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The package's schema and first rows (pgcrypto hashes its passwords), and the openid scope's password rule. */
async function prepareDatabase(url: string): Promise<void> {
  const script = `${readFileSync(schemaScript, "utf8")}\n${readFileSync(firstRowsScript, "utf8")}`;
  // The package leaves openid without a password requirement; the comparison is of password sign-ins.
  await query(
    url,
    `create extension if not exists pgcrypto;\n${script}
    update g_scope set gs_password_required = 1 where gs_name = 'openid';`,
  );
}

/**
 * On PostgreSQL Glewlwyd stores `crypt(password, gen_salt('bf'))` (bcrypt, cost 6) and checks with
 * `crypt(password, stored)`, so the cost is the stored hash's own: the people's hashes are made again at the
 * cost whose time comes closest to one argon2id check (bcrypt's cost is a power of two, so within ×√2).
 * A client secret is a long random string, not something a person chose: KPI ID keeps one SHA-256 of it; bcrypt's
 * lowest cost, 4, is the closest Glewlwyd allows.
 */
async function setPasswordCosts(url: string, settings: GlewlwydSettings) {
  const times: number[] = [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Timed from here: a loopback round trip adds a fraction of a millisecond to bcrypt's few.
    for (let i = 0; i < 5; i++) {
      const began = performance.now();
      await client.query("select crypt($1, gen_salt('bf', 6))", [settings.password]);
      times.push(performance.now() - began);
    }
  } finally {
    await client.end();
  }
  const cost6Ms = times.sort((a, b) => a - b)[2] ?? 1;
  const bcryptCost = Math.min(31, Math.max(4, Math.round(6 + Math.log2(settings.argon2Ms / cost6Ms))));
  await query(
    url,
    `update g_user_password set guw_password = crypt($1, gen_salt('bf', ${bcryptCost}))
    where gu_id in (select gu_id from g_user where gu_username <> 'admin')`,
    [settings.password],
  );
  await query(url, "update g_client set gc_password = crypt($1, gen_salt('bf', 4))", [settings.client.secret]);
  return { bcryptCost, bcryptMs: cost6Ms * 2 ** (bcryptCost - 6) };
}

async function call(browser: TestBrowser, method: string, path: string, body: unknown): Promise<void> {
  const response = await browser.request(path, {
    method,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`Glewlwyd ${method} ${path} answered ${response.status} ${text}`);
}

/** The OpenID Connect plugin: RS256 with a 2048-bit key as KPI ID signs, PKCE, refresh tokens used once. */
function oidcPlugin(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    module: "oidc",
    name: "oidc",
    display_name: "OpenID Connect",
    enabled: true,
    parameters: {
      iss: origin,
      "jwt-type": "rsa",
      "jwt-key-size": "256",
      key: privateKey.export({ type: "pkcs8", format: "pem" }),
      cert: publicKey.export({ type: "spki", format: "pem" }),
      "access-token-duration": 3600,
      "refresh-token-duration": 1209600,
      "code-duration": 600,
      "refresh-token-rolling": false,
      // Rotation, as KPI ID does: each refresh token works once and the answer carries the next.
      "refresh-token-one-use": "always",
      "allow-non-oidc": false,
      "auth-type-code-enabled": true,
      "auth-type-token-enabled": false,
      "auth-type-none-enabled": false,
      "auth-type-password-enabled": false,
      "auth-type-client-enabled": false,
      "auth-type-refresh-enabled": true,
      "pkce-allowed": true,
      "subject-type": "public",
      // The person's name in the ID token, as KPI ID's profile scope puts it there.
      "name-claim": "mandatory",
    },
  };
}

async function configure(origin: string, settings: GlewlwydSettings): Promise<void> {
  const administrator = new TestBrowser(origin);
  await call(administrator, "POST", "/api/auth/", admin);
  await call(administrator, "POST", "/api/mod/plugin/", oidcPlugin(origin));
  await call(administrator, "POST", "/api/client/", {
    client_id: settings.client.id,
    name: "Bench relying party",
    password: settings.client.secret,
    confidential: true,
    enabled: true,
    redirect_uri: [settings.redirectUri],
    authorization_type: ["code", "refresh_token"],
    token_endpoint_auth_method: ["client_secret_basic"],
  });
  for (const person of settings.people) {
    await call(administrator, "POST", "/api/user/", {
      username: person.username,
      name: person.fullName,
      password: settings.password,
      scope: ["openid"],
      enabled: true,
    });
    // The consent screen's answer, once per person (Glewlwyd asks every person; KPI ID does not ask for its own
    // first-party applications), so the measured sign-ins go straight from the password to the code.
    const browser = new TestBrowser(origin);
    await call(browser, "POST", "/api/auth/", { username: person.username, password: settings.password });
    await call(browser, "PUT", `/api/auth/grant/${encodeURIComponent(settings.client.id)}`, { scope: "openid" });
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Starts a configured Glewlwyd on a free loopback port; stop() ends the process, drops its database and directory. */
export async function startGlewlwyd(settings: GlewlwydSettings): Promise<RunningGlewlwyd> {
  const directory = mkdtempSync(join(tmpdir(), "glewlwyd-bench-"));
  const name = `glewlwyd_bench_${randomBytes(6).toString("hex")}`;
  const url = databaseUrl(settings.adminDatabaseUrl, name);
  const log = join(directory, "glewlwyd.log");
  let child: ChildProcess | undefined;
  let created = false;
  const stop = async () => {
    if (child) await stopProcess(child);
    // Its errors (a 500's cause is only in its log), before the directory goes.
    const errors = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => / ERROR: /.test(line))
      : [];
    if (errors.length > 0)
      console.error(`  Glewlwyd's log, last errors of ${errors.length}:\n${errors.slice(-8).join("\n")}`);
    rmSync(directory, { recursive: true, force: true });
    if (created) await query(settings.adminDatabaseUrl, `drop database if exists ${name} with (force)`);
  };
  try {
    await query(settings.adminDatabaseUrl, `create database ${name}`);
    created = true;
    await prepareDatabase(url);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const config = join(directory, "glewlwyd.conf");
    writeFileSync(config, configFile(directory, port, url));
    child = spawn(glewlwydBinary, [`--config-file=${config}`], { stdio: ["ignore", "ignore", "inherit"] });
    await waitUntilAnswering(`${origin}/config`, child, 30_000);
    await configure(origin, settings);
    const costs = await setPasswordCosts(url, settings);
    return { origin, pid: child.pid ?? 0, ...costs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
