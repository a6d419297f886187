import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../../src/platform/config/index.ts";
import { type RunningServer, startServer } from "../../../src/server.ts";
import { runCli } from "../../../src/surfaces/cli/main.ts";
import { exposedPaths, loosen } from "../../support/modes.ts";

const directory = mkdtempSync(join(tmpdir(), "kpi-id-modes-"));
const dataDir = join(directory, "data");
// Without SESSION_SECRET, as a newcomer starts it: the secret is generated into DATA_DIR/session.secret.
const environment = {
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  PORT: "0",
  LOG_LEVEL: "silent",
  WEB_DIST_DIR: "/nonexistent-web-dist",
};

describe("DATA_DIR readable by its own account only", () => {
  let server: RunningServer | undefined;
  const stderrLines: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    vi.restoreAllMocks();
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const start = async () => {
    stderrLines.length = 0;
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderrLines.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    });
    server = await startServer(loadConfig(environment));
    vi.restoreAllMocks();
    return server;
  };
  const modeWarnings = () => stderrLines.filter((line) => line.includes("was readable by other local accounts"));

  // The suite's one start on a new cluster migrated from nothing, as a newcomer runs `node apps/server/src/server.ts`
  // (no NODE_ENV, no SEED_DEMO_DATA): demo-data.test.ts's starts begin from migrated files and count on this one for
  // a new install's nobody and silence (console.warn writes to process.stderr, which `start` reads).
  it("makes a fresh install's folders 0700 and files 0600 (database, lock file, session secret), silently", async () => {
    const running = await start();
    expect(modeWarnings()).toEqual([]);
    expect(stderrLines).toEqual([]);
    expect(await running.app.db.selectFrom("users").select("username").execute()).toEqual([]);
    expect(lstatSync(join(dataDir, "session.secret")).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(dataDir, "pglite.lock")).mode & 0o777).toBe(0o600);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    // Writing while it runs (a person, a session) keeps to the same modes.
    await running.app.inject({ url: "/api/user" });
    await server?.close();
    server = undefined;
    expect(exposedPaths(dataDir)).toEqual([]);
    expect(readdirSync(join(dataDir, "pglite")).length).toBeGreaterThan(5);
  }, 120_000);

  it("corrects an existing install with 0755 folders and 0666 files at start, saying so in one line", async () => {
    loosen(dataDir);
    expect(exposedPaths(dataDir).length).toBeGreaterThan(100);
    await start();
    expect(modeWarnings()).toHaveLength(1);
    expect(modeWarnings()[0]).toMatch(
      new RegExp(
        `^kpi-id: warning: DATA_DIR ${dataDir} was readable by other local accounts: made \\d+ folder\\(s\\) 0700 and \\d+ file\\(s\\) 0600$`,
      ),
    );
    await server?.close();
    server = undefined;
    expect(exposedPaths(dataDir)).toEqual([]);
    // The next start has nothing to correct and says nothing.
    await start();
    expect(modeWarnings()).toEqual([]);
  }, 120_000);

  it("the CLI corrects them too, with the same one line on stderr, and leaves what is not the service's", async () => {
    loosen(dataDir);
    // An operator's own file in DATA_DIR (DATA_DIR=. by mistake, notes): not the service's to change.
    const notes = join(dataDir, "notes.txt");
    writeFileSync(notes, "the operator's notes\n", { mode: 0o644 });
    chmodSync(notes, 0o644);
    const err: string[] = [];
    const code = await runCli(["migrate"], { env: environment, stdout: () => {}, stderr: (line) => err.push(line) });
    expect(code).toBe(0);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain("was readable by other local accounts: made");
    expect(exposedPaths(dataDir)).toEqual([`644 ${notes}`]);
    rmSync(notes);
  }, 120_000);
});
