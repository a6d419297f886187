import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { firstLoadReport } from "./scripts/first-load-report.ts";
import { localesCheck } from "./scripts/locales-check.ts";
import { precompress } from "./scripts/precompress.ts";

export default defineConfig({
  plugins: [react(), tailwindcss(), localesCheck(), firstLoadReport(), precompress()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
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
