// `npm start`'s build: `npm run build` only when what it is made from changed since the last one. The inputs are
// hashed by content (the sources, scripts and configuration of the web app, the server, the packages, and the
// lock file), the hash kept in node_modules/.cache; the build is also made when it is missing or the server's
// bundle is not current (bin/server-module.js's staleBundleReason, the check the server itself makes at start).
// Each part's build is written beside the one in use and published file by file (build-beside.ts, the server's
// chunks by name), so a server already running from this checkout keeps every file it serves.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { staleBundleReason } from "@kpi-id/server/server-module";

const root = fileURLToPath(new URL("../", import.meta.url));
const inputs = ["package.json", "package-lock.json", "tsconfig.base.json", "apps/web", "apps/server", "packages"];
/** Not inputs of the build: what it writes, what it installs, and the tests. */
const skipped = new Set(["node_modules", "dist", "test", "coverage"]);
const stampFile = join(root, "node_modules/.cache/kpi-id/build-inputs.sha256");

function addInputs(hash: ReturnType<typeof createHash>, path: string): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  const entries = readdirSync(full, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile());
  for (const file of entries.map((entry) => relative(root, join(entry.parentPath, entry.name))).sort()) {
    if (file.split("/").some((part) => skipped.has(part) || part.startsWith("dist.next-"))) continue;
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
}

/** The SHA-256 of every input's path and contents. */
export function buildInputsHash(): string {
  const hash = createHash("sha256");
  for (const input of inputs) {
    const full = join(root, input);
    if (!existsSync(full)) continue;
    if (input.endsWith(".json")) hash.update(`${input}\0`).update(readFileSync(full)).update("\0");
    else addInputs(hash, input);
  }
  return hash.digest("hex");
}

/** Why a build is needed, or undefined when the last one is current. */
function buildNeeded(hash: string): string | undefined {
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : undefined;
  if (stamp !== hash) return stamp === undefined ? "no build recorded" : "its inputs changed";
  const stale = staleBundleReason();
  if (stale !== undefined) return `the server's bundle: ${stale}`;
  for (const built of ["apps/web/dist/index.html", "packages/signin-button/dist/kpi-id-signin.js"]) {
    if (!existsSync(join(root, built))) return `${built} is missing`;
  }
  return undefined;
}

const started = performance.now();
const hash = buildInputsHash();
const reason = buildNeeded(hash);
if (reason === undefined) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`build: current (inputs unchanged, ${hash.slice(0, 12)}; checked in ${seconds} s)`);
} else {
  console.log(`build: ${reason}; building`);
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  mkdirSync(join(stampFile, ".."), { recursive: true });
  // The hash taken before the build: an edit made while it ran is seen at the next start.
  writeFileSync(stampFile, `${hash}\n`);
}
