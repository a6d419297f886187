import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { preactAliases } from "./scripts/preact-aliases.ts";
import { filesNeedingFreshModules } from "./test/fresh-modules.ts";

/**
 * Files that need modules of their own, run with isolation by vitest.isolated.config.ts: every file that mocks a
 * module (vi.mock), and those whose module state is what they test. Found by reading the files
 * (test/fresh-modules.ts), so a new mock cannot leak into the files that share a worker's module graph.
 */
export const needFreshModules = filesNeedingFreshModules(fileURLToPath(new URL(".", import.meta.url)), ["src", "test"]);

export default defineConfig({
  resolve: {
    alias: [
      { find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) },
      ...preactAliases,
      // CommonJS that requires React itself: test/with-selector.ts says why.
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: fileURLToPath(new URL("./test/with-selector.ts", import.meta.url)),
      },
    ],
    // Libraries' ES module builds (Testing Library's "module" field, lucide-react's "module" condition), so
    // their React imports meet the aliases: a CommonJS build would require React itself.
    mainFields: ["module", "main"],
    conditions: ["module"],
  },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    exclude: [...configDefaults.exclude, ...needFreshModules],
    // The files share one module graph per worker instead of importing React, the router and the libraries
    // again for each file (issue 41: the web project took 300 s with isolation and 38 s without, three workers
    // on this 2-core machine). test/setup.ts clears what a test leaves (the DOM, toasts, mocks, timers).
    isolate: false,
    setupFiles: ["./test/setup.ts"],
    // Libraries are bundled through the aliases too, so every component renders with the same Preact.
    server: { deps: { inline: true } },
    // The first page a test opens has its lazy route and every library go through the transform: seconds on a
    // machine shared with other work, so tests and Testing Library's findBy… waits (test/setup.ts) allow for it.
    testTimeout: 20_000,
  },
});
