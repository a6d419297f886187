// The previous release (0.2.0) checked out beside the current code, so the rolling-upgrade scenario runs
// its real server, not the current one pretending to be it.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { createUser, migrate, openDatabase } from "@kpi-id/server/testing";

const run = promisify(execFile);

/**
 * 0.2.0: the last commit whose migrations end at 0310, before the third round's 0415. It has no tag (the
 * repository tags nothing); CHANGELOG.md's 0.2.0 section and migrations-expand-contract.test.ts name the
 * same boundary. A clone without this commit in its history cannot run the scenario and says so.
 */
export const previousReleaseCommit = "7646dcf5c42dcf5862b3cdb42142ec53691b41ca";

const repositoryRoot = new URL("../../", import.meta.url).pathname;

/** What the scenario uses of the previous release's `@kpi-id/server/testing` (same signatures as today's). */
export interface ReleaseDatabaseTools {
  openDatabase: typeof openDatabase;
  migrate: typeof migrate;
  createUser: typeof createUser;
}

export interface PreviousRelease {
  root: string;
  /** Its bin/kpi-id-server.js, started with the same Node flags as the current one. */
  entry: string;
  tools: ReleaseDatabaseTools;
  remove(): Promise<void>;
}

const dependencyFiles = ["apps/server/package.json", "packages/contracts/package.json"];

/** Every dependency a package.json declares (runtime and dev), with its version range. */
function dependenciesOf(file: string): Map<string, string> {
  const { dependencies, devDependencies } = JSON.parse(file) as Record<string, Record<string, string> | undefined>;
  return new Map(Object.entries({ ...devDependencies, ...dependencies }));
}

/**
 * `git worktree add` of the previous release, with a node_modules that links every installed package of
 * the current checkout (the ranges it declared must be today's, which is checked) and its own
 * workspace links (@kpi-id/*, relative), so its server imports its own contracts.
 */
export async function checkOutPreviousRelease(workDir: string): Promise<PreviousRelease> {
  const root = join(workDir, "previous-release");
  await run("git", ["-C", repositoryRoot, "cat-file", "-e", `${previousReleaseCommit}^{commit}`]).catch(() => {
    throw new Error(`the previous release ${previousReleaseCommit} is not in this clone's history (fetch it)`);
  });
  await run("git", ["-C", repositoryRoot, "worktree", "add", "--detach", root, previousReleaseCommit]);
  const remove = async () => {
    await run("git", ["-C", repositoryRoot, "worktree", "remove", "--force", root]).catch(() => undefined);
  };
  try {
    // Every dependency it declared must be declared today with the same range: otherwise linking today's
    // node_modules would run it on packages it never ran on. Dependencies added since do not matter to it. One it
    // needs that today's code no longer uses stays declared as a devDependency of apps/server, so the production
    // image leaves it out: xmllint-wasm and @authenio/samlify-xmllint-wasm (0.5.0 checks SAML with libxml2-wasm).
    for (const file of dependencyFiles) {
      const now = dependenciesOf(readFileSync(join(repositoryRoot, file), "utf8"));
      for (const [name, range] of dependenciesOf(readFileSync(join(root, file), "utf8"))) {
        if (now.get(name) !== range) {
          throw new Error(`${file}: the previous release wants ${name}@${range}, today has ${now.get(name) ?? "none"}`);
        }
      }
    }
    const modules = join(root, "node_modules");
    mkdirSync(modules);
    for (const name of readdirSync(join(repositoryRoot, "node_modules"))) {
      if (name === "@kpi-id") continue;
      symlinkSync(join(repositoryRoot, "node_modules", name), join(modules, name));
    }
    // Relative links (../../packages/contracts): copied as links they point into the previous release.
    cpSync(join(repositoryRoot, "node_modules", "@kpi-id"), join(modules, "@kpi-id"), {
      recursive: true,
      verbatimSymlinks: true,
    });
    const tools = (await import(join(root, "apps/server/test/support/testing.ts"))) as ReleaseDatabaseTools;
    return { root, entry: join(root, "apps/server/bin/kpi-id-server.js"), tools, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
