// Which form of the server this process runs: the bundle `npm run build` makes in apps/server/dist
// (scripts/build.ts), when it is there and every file it was made from is as it was then; otherwise the TypeScript
// source, through Node's type stripping and compile cache, as before the bundle existed. Production (the
// Dockerfile, the operator guide) and `npm start` build first, so they run the bundle; a source edited after
// the last build is never hidden behind an old bundle.
// Plain JavaScript on purpose: it runs before anything is compiled (see kpi-id-server.js).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import module from "node:module";

const bundleDir = new URL("../dist/", import.meta.url);

/**
 * Why the bundle in `distDir` cannot be used, or undefined when it can: its record (build.json) gives the SHA-256
 * of every file it was made from (our sources, the package.json of each package it holds), each of which must
 * still have it. Contents, not times: a copy that keeps old times over a newer build is seen too.
 */
export function staleBundleReason(distDir = bundleDir) {
  let record;
  try {
    record = JSON.parse(readFileSync(new URL("build.json", distDir), "utf8"));
  } catch {
    return "there is no build (npm run build makes it)";
  }
  for (const [input, digest] of Object.entries(record.builtFrom)) {
    let contents;
    try {
      contents = readFileSync(new URL(input, distDir));
    } catch {
      return `${input}, which it was built from, is gone`;
    }
    if (createHash("sha256").update(contents).digest("hex") !== digest) return `${input} changed since it was built`;
  }
  return undefined;
}

/**
 * The server module (src/server.ts's exports): the bundle when it is current, else the source; and why not the
 * bundle (undefined when it is the bundle), so that a caller need not check the bundle a second time. A caller
 * that has just checked (scripts/start.ts, after its build) passes what staleBundleReason() said as `checked.stale`.
 */
export async function loadServerModule(checked) {
  const stale = checked === undefined ? staleBundleReason() : checked.stale;
  if (stale === undefined) return { server: await import("../dist/server.mjs"), stale };
  console.warn(`kpi-id: running the server's TypeScript source, not its build: ${stale}`);
  // Restarts take every file's stripped and compiled form from the cache and never load Node's type stripper
  // (its WebAssembly compiler alone held 13-17 MiB for the life of the process): issue 20's memory figures.
  module.enableCompileCache();
  return { server: await import("../src/server.ts"), stale };
}
