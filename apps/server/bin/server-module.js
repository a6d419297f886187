// Which form of the server this process runs: the bundle `npm run build` makes in apps/server/dist
// (scripts/build.ts), when it is there and no file it was made from has changed since; otherwise the TypeScript
// source, through Node's type stripping and compile cache, as before the bundle existed. Production (the
// Dockerfile, the operator guide) and `npm start` build first, so they run the bundle; a source edited after
// the last build is never hidden behind an old bundle.
// Plain JavaScript on purpose: it runs before anything is compiled (see kpi-id-server.js).

import { readFileSync, statSync } from "node:fs";
import module from "node:module";

const serverDir = new URL("../", import.meta.url);

/**
 * Why the bundle in `root`'s dist cannot be used, or undefined when it can: its record (dist/build.json) lists
 * every file it was made from, and none may be newer than the build or missing.
 */
export function staleBundleReason(root = serverDir) {
  let record;
  try {
    record = JSON.parse(readFileSync(new URL("dist/build.json", root), "utf8"));
  } catch {
    return "there is no build (npm run build makes it)";
  }
  for (const input of record.builtFrom) {
    let modifiedMs;
    try {
      modifiedMs = statSync(new URL(input, root)).mtimeMs;
    } catch {
      return `${input}, which it was built from, is gone`;
    }
    if (modifiedMs > record.builtAtMs) return `${input} changed after it was built`;
  }
  return undefined;
}

/** The server module (src/server.ts's exports): the bundle when it is current, else the source. */
export async function loadServerModule() {
  const stale = staleBundleReason();
  if (stale === undefined) return import("../dist/server.mjs");
  if (process.env.NODE_ENV === "production")
    console.warn(`kpi-id: running the server's TypeScript source, not its build: ${stale}`);
  // Restarts take every file's stripped and compiled form from the cache and never load Node's type stripper
  // (its WebAssembly compiler alone held 13-17 MiB for the life of the process): issue 20's memory figures.
  module.enableCompileCache();
  return import("../src/server.ts");
}
