import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// One self-contained IIFE for third-party pages: no chunks, no module loader.
export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2019",
    lib: {
      entry: fileURLToPath(new URL("./src/embed.ts", import.meta.url)),
      formats: ["iife"],
      name: "KPIIDSignin",
      fileName: () => "kpi-id-signin.js",
    },
  },
});
