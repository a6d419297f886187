import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Vitest's default is one worker fewer than the cores: on a 2-core machine one test file at a time, while the
// server's files spend much of their time waiting for PostgreSQL, argon2's threads and the disk. Every file has
// databases of its own (apps/server/test/support/databases.ts) and nothing listens on a fixed port, so files run
// side by side. Set through the variable Vitest reads for every project: a root `maxWorkers` does not reach the
// projects' own configurations. VITEST_MAX_WORKERS=1 runs one file at a time again.
process.env.VITEST_MAX_WORKERS ??= String(availableParallelism() + 1);

// The web app's files first, then the rest in Vitest's own order (projects by name, each one's files largest first
// on a fresh clone). The web files came last: each worker first transforms the React app and its libraries, and
// for the suite's last half-minute the two cores were 60 % busy (issue 41). First, as each worker finishes its web
// files it moves on to the server's, and the run ends on the small files of the server and the sign-in button.
class WebFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isWeb = (file: TestSpecification) => file.project.name.startsWith("web");
    return [...sorted.filter(isWeb), ...sorted.filter((file) => !isWeb(file))];
  }
}

// Each workspace keeps its own vitest.config.ts; this runs them all as one suite.
export default defineConfig({
  test: {
    sequence: { sequencer: WebFilesFirst },
    projects: [
      "apps/*/vitest.config.ts",
      "apps/web/vitest.isolated.config.ts",
      "packages/*/vitest.config.ts",
      "sandbox/*/vitest.config.ts",
      "sandbox/vitest.config.ts*",
      "examples/*/vitest.config.ts",
    ],
  },
});
