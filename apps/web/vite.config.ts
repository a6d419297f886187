import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    // In development the API is the real server; the browser sees one origin.
    proxy: { "/api": "http://localhost:3000", "/google": "http://localhost:3000", "/oidc": "http://localhost:3000" },
  },
});
