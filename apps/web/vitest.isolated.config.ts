import { defineConfig } from "vitest/config";
import web, { needFreshModules } from "./vitest.config.ts";

// The web files whose tests need modules of their own: each runs with Vitest's isolation, as every file did
// before the web project shared one module graph per worker (vitest.config.ts).
export default defineConfig({
  ...web,
  test: { ...web.test, name: "web-isolated", include: needFreshModules, exclude: [], isolate: true },
});
