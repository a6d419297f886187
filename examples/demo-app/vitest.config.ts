import { defineConfig } from "vitest/config";

// The test boots a real KPI ID on the embedded database, which takes seconds on a busy machine.
export default defineConfig({
  test: {
    name: "demo-app",
    environment: "node",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
