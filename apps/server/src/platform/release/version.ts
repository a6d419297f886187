import { readFileSync } from "node:fs";

/**
 * The release this server is, read from its package.json (the root package.json and CHANGELOG.md
 * carry the same number; a test keeps the three in step). Read once: /health answers it on every probe.
 */
function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error("apps/server/package.json has no version");
  return version;
}

export const serverVersion = readVersion();
