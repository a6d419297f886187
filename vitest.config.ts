import { defineConfig } from "vitest/config";

// Each workspace keeps its own vitest.config.ts; this runs them all as one suite.
export default defineConfig({
  test: {
    projects: [
      "apps/*/vitest.config.ts",
      "packages/*/vitest.config.ts",
      "sandbox/*/vitest.config.ts",
      "sandbox/vitest.config.ts*",
      "examples/*/vitest.config.ts",
    ],
  },
});
