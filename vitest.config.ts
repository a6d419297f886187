import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Each workspace keeps its own vitest.config.ts; this runs them all as one suite.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one test file at a time, and the
    // server's files spend much of their time waiting for PostgreSQL, argon2's threads and the disk. Every
    // file has databases of its own (apps/server/test/support/databases.ts), so files run side by side.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? availableParallelism() + 1),
    projects: [
      "apps/*/vitest.config.ts",
      "packages/*/vitest.config.ts",
      "sandbox/*/vitest.config.ts",
      "sandbox/vitest.config.ts*",
      "examples/*/vitest.config.ts",
    ],
  },
});
