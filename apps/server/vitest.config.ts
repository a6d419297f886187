import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    environment: "node",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One migrated database of each kind, copied by every test database (test/support/databases.ts).
    globalSetup: ["test/support/global-setup.ts"],
  },
});
