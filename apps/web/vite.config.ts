import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { firstLoadReport } from "./scripts/first-load-report.ts";
import { localesCheck } from "./scripts/locales-check.ts";
import { preactAliases } from "./scripts/preact-aliases.ts";
import { precompress } from "./scripts/precompress.ts";
import { routePreloads } from "./scripts/route-preloads.ts";

export default defineConfig({
  plugins: [tailwindcss(), localesCheck(), firstLoadReport(), routePreloads(), precompress()],
  resolve: {
    alias: [{ find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) }, ...preactAliases],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // "use client" marks React server components' client side; this app has no server components.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      output: {
        // The first load as one file: the page is served over HTTP/1.1 (no proxy in front on one machine), whose
        // six connections took 18 small chunks in three rounds of round trips (docs/performance-history.md, sixth pass).
        codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] },
      },
    },
  },
  server: {
    port: 5173,
    // In development the API is the real server; the browser sees one origin.
    proxy: {
      "/api": "http://localhost:3000",
      "/google/": "http://localhost:3000",
      "/user": "http://localhost:3000",
      "/oidc": "http://localhost:3000",
      "/locales/add": "http://localhost:3000",
    },
  },
});
