import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../../src/platform/config/index.ts";
import { type RunningServer, startServer } from "../../../src/server.ts";
import { migratedDataDirOnDisk } from "../../support/databases.ts";

/** `node apps/server/src/server.ts` as an operator starts it: no NODE_ENV, an empty embedded database. */
function plainStartEnvironment(dataDir: string, extra: Record<string, string> = {}) {
  return {
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "silent",
    WEB_DIST_DIR: "/nonexistent-web-dist",
    ...extra,
  };
}

// Each test starts the service on the run's migrated files written into its DATA_DIR (migratedDataDirOnDisk), not
// on a new cluster migrated from nothing (27 s each in a full run on two cores): the seed runs after the migrations
// at every start, whatever they applied. The same plain start on a new cluster, with nobody in it and nothing said
// on stderr, is data-dir-modes.test.ts's first test (issue 75: one such start per run).
describe("demo people only by an explicit choice", { timeout: 120_000 }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    vi.restoreAllMocks();
  });

  async function start(extra: Record<string, string> = {}): Promise<RunningServer> {
    const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-demo-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await migratedDataDirOnDisk(dataDir);
    const server = await startServer(loadConfig(plainStartEnvironment(dataDir, extra)));
    cleanups.push(() => server.close());
    return server;
  }

  it("starts the server without NODE_ENV on an embedded database with nobody in it, and no banner", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const server = await start();
    const people = await server.app.db.selectFrom("users").select("username").execute();
    expect(people).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("seeds the demo campus with SEED_DEMO_DATA=true and says loudly at start-up that demo accounts exist", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const server = await start({ SEED_DEMO_DATA: "true" });
    const people = await server.app.db.selectFrom("users").select("username").execute();
    expect(people.map((person) => person.username)).toContain("student");
    // One demo person has a confirmed address, so "Forgot password?" by e-mail can be tried in the sandbox.
    const confirmed = await server.app.db
      .selectFrom("users")
      .select(["username", "verified_email"])
      .where("verified_email", "is not", null)
      .execute();
    expect(confirmed).toEqual([{ username: "employee", verified_email: "andrii.melnyk@kpi.ua" }]);
    const banner = warn.mock.calls.map((call) => String(call[0])).join("\n");
    expect(banner).toContain("DEMO ACCOUNTS EXIST with published passwords: student, employee, both, newcomer");
  });
});
