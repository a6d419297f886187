import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config/index.ts";
import { secretVariables } from "../../src/platform/config/secret-files.ts";
import { productionEnvironment, productionNodeFlags } from "../../src/platform/production-process.ts";

// deploy/systemd/kpi-id.service, the unit of the tarball install (docs/operations.md, "systemd").
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const unit = readFileSync(join(root, "deploy/systemd/kpi-id.service"), "utf8");
const work = mkdtempSync(join(tmpdir(), "kpi-id-systemd-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every value of a setting in the [Service] section (a setting may be given more than once). */
function settings(name: string): string[] {
  return unit
    .split("\n")
    .filter((line) => line.startsWith(`${name}=`))
    .map((line) => line.slice(name.length + 1));
}

/** Environment= lines as one map (a line may set several variables). */
function environment(): Map<string, string> {
  const pairs = settings("Environment").flatMap((line) => line.split(/\s+/));
  return new Map(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/**
 * The unit as this machine would run it: the tarball's place is this checkout (its bin/kpi-id-server.js exists) and
 * Node is the one running the test, since `systemd-analyze verify` checks that the command it starts exists.
 */
function rendered(): string {
  const path = join(work, "kpi-id.service");
  writeFileSync(
    path,
    unit
      .replaceAll("/opt/kpi-id/current/", root)
      .replaceAll("/opt/kpi-id/current", root.replace(/\/$/, ""))
      .replace("ExecStart=/usr/bin/node", `ExecStart=${process.execPath}`),
  );
  return path;
}

describe("the systemd unit of the tarball install", () => {
  it("passes systemd-analyze verify", () => {
    const path = rendered();
    const verified = spawnSync("systemd-analyze", ["verify", path], { encoding: "utf8", cwd: work });
    // Other units installed on the machine may be warned about; nothing about this one.
    const aboutThisUnit = verified.stderr.split("\n").filter((line) => line.includes("kpi-id"));
    expect(aboutThisUnit).toEqual([]);
    expect(verified.status).toBe(0);
  });

  it("is hardened: a dedicated user, a read-only system, no new privileges, an exposure of at most 2.5", () => {
    expect(settings("User")).toEqual(["kpi-id"]);
    expect(settings("ProtectSystem")).toEqual(["strict"]);
    expect(settings("NoNewPrivileges")).toEqual(["yes"]);
    expect(settings("CapabilityBoundingSet")).toEqual([""]);
    expect(settings("StateDirectory")).toEqual(["kpi-id"]);
    // systemd's own rating of the sandbox (0 the tightest, 10 none): fails above 2.5.
    const security = spawnSync("systemd-analyze", ["security", "--offline=yes", "--threshold=25", rendered()], {
      encoding: "utf8",
      cwd: work,
    });
    expect(security.stdout).toMatch(/Overall exposure level for kpi-id\.service: [0-2]\.\d/);
    expect(security.status).toBe(0);
  });

  it("runs the production command, and keeps state in the state directory", () => {
    const [execStart] = settings("ExecStart");
    expect(execStart).toBe(
      `/usr/bin/node ${productionNodeFlags.join(" ")} /opt/kpi-id/current/apps/server/bin/kpi-id-server.js`,
    );
    const variables = environment();
    for (const [name, value] of Object.entries(productionEnvironment)) expect(variables.get(name)).toBe(value);
    expect(variables.get("NODE_ENV")).toBe("production");
    expect(variables.get("DATA_DIR")).toBe("/var/lib/kpi-id");
  });

  it("hands each secret over as a credential that the server reads through its NAME_FILE setting", () => {
    const credentials = settings("LoadCredential").map((value) => value.split(":")[0] ?? "");
    expect(credentials).toEqual(["session_secret", "database_url"]);
    const fileSettings = [...environment()].filter(([name]) => name.endsWith("_FILE"));
    expect(fileSettings.map(([name, value]) => [name, value])).toEqual([
      ["SESSION_SECRET_FILE", "%d/session_secret"],
      ["DATABASE_URL_FILE", "%d/database_url"],
    ]);
    for (const [name] of fileSettings) expect(secretVariables).toContain(name.replace(/_FILE$/, ""));

    // What systemd does at start: the credentials copied into $CREDENTIALS_DIRECTORY, %d replaced by it.
    const credentialsDirectory = join(work, "credentials");
    mkdirSync(credentialsDirectory, { recursive: true });
    const sessionSecret = "Zt4p8Qw2-systemd-credential-9fJk3LmN0bXc7Vd";
    writeFileSync(join(credentialsDirectory, "session_secret"), `${sessionSecret}\n`);
    writeFileSync(
      join(credentialsDirectory, "database_url"),
      "postgres://kpi_id:from-a-credential@db.internal/kpi_id\n",
    );
    chmodSync(credentialsDirectory, 0o500);
    const withCredentials = Object.fromEntries(
      [...environment()].map(([name, value]) => [name, value.replace("%d", credentialsDirectory)]),
    );
    const config = loadConfig({ ...withCredentials, PUBLIC_URL: "https://id.kpi.ua", DATA_DIR: join(work, "data") });
    expect(config.sessionSecret).toBe(sessionSecret);
    expect(config.database.url).toBe("postgres://kpi_id:from-a-credential@db.internal/kpi_id");
  });
});
