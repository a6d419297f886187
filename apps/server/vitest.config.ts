import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    environment: "node",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The files share one module graph per worker instead of importing the whole server again for each
    // (issue 41). Every file builds its own app, databases and stand-ins; no test mocks a module or changes
    // process.env. Measured on 15 files, three workers: 185 s with isolation, 64 s without.
    isolate: false,
    // One migrated database of each kind, copied by every test database (test/support/databases.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Signing keys made once per worker instead of once per app (test/support/rsa-keys.ts), and openssl's keys and
    // certificates likewise (test/support/key-material.ts).
    setupFiles: ["test/support/rsa-keys.ts", "test/support/key-material-per-file.ts", "test/support/file-cpu.ts"],
  },
});
