import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../src/model/users/queries.ts";
import { openDatabase } from "../../../src/platform/db/index.ts";
import { migratedDataDirOnDisk } from "../../support/databases.ts";

const cli = fileURLToPath(new URL("../../../src/surfaces/cli/main.ts", import.meta.url));

function runCliProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the embedded database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-lock-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // Two processes of the CLI, each starting Node and opening the embedded database on disk (5 s alone): 50 s of the
  // default 60 in a full run here, and over it on a slower machine (stop 70's CI failed one test, most likely this).
  it("refuses a second process with a clear error and keeps the data intact", { timeout: 180_000 }, async () => {
    await migratedDataDirOnDisk(dataDir);
    const first = await openDatabase({ dataDir });
    await insertUser(first.db, { username: "kept", full_name: "Kept Person" });

    const second = await runCliProcess(["user", "list", "--json"], { DATA_DIR: dataDir, DATABASE_URL: "" });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`already open in process ${process.pid}`);
    expect(second.stderr).toContain("pglite.lock");

    const users = await first.db.selectFrom("users").select("username").execute();
    expect(users.map((u) => u.username)).toEqual(["kept"]);
    await first.close();

    // Once the first holder is gone the database opens again, with the data.
    const reopened = await runCliProcess(["user", "list", "--json"], { DATA_DIR: dataDir, DATABASE_URL: "" });
    expect(reopened.code).toBe(0);
    expect(JSON.parse(reopened.stdout).map((u: { username: string }) => u.username)).toEqual(["kept"]);
  });
});
