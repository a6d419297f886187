// `npm start`'s build: `npm run build` only when what it is made from changed since the last one. The inputs are
// hashed by content (the sources, scripts and configuration of the web app, the server, the packages, and the
// lock file), the hash kept in node_modules/.cache; the build is also made when it is missing or the server's
// bundle is not current (bin/server-module.js's staleBundleReason, the check the server itself makes at start).
// Each part's build is written beside the one in use and published file by file (build-beside.ts, the server's
// chunks by name), so a server already running from this checkout keeps every file it serves.
//
// Reading every input at each start cost 0.1–0.8 s (issue 62), so the hash is not taken again while no input's
// size, modification or change time, or the list of inputs, differs from when it last was (build-inputs.stats.json
// beside the hash). The change time (ctime) is the kernel's: a copy that keeps an old mtime (`cp -p`, `touch -d`)
// still sets it, and then the contents are hashed as before, so only a content change makes a build.
// scripts/start.ts calls currentBuild() in its own process; `node scripts/build-if-changed.ts` runs it alone.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { staleBundleReason } from "@kpi-id/server/server-module";

const defaultRoot = fileURLToPath(new URL("../", import.meta.url));
const inputs = ["package.json", "package-lock.json", "tsconfig.base.json", "apps/web", "apps/server", "packages"];
/** Not inputs of the build: what it writes, what it installs, and the tests. */
const skipped = new Set(["node_modules", "dist", "test", "coverage"]);
const isSkipped = (name: string) => skipped.has(name) || name.startsWith("dist.next-");
const cacheDir = "node_modules/.cache/kpi-id";
const stampName = "build-inputs.sha256";
const statsName = "build-inputs.stats.json";

/** Every input file, relative to the root: each input in turn, a folder's files sorted, as the hash takes them. */
export function listInputs(root = defaultRoot): string[] {
  const files: string[] = [];
  const walk = (relative: string, found: string[]) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      if (isSkipped(entry.name)) continue;
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path, found);
      else if (entry.isFile()) found.push(path);
    }
  };
  for (const input of inputs) {
    if (!existsSync(join(root, input))) continue;
    if (!statSync(join(root, input)).isDirectory()) {
      files.push(input);
      continue;
    }
    const found: string[] = [];
    walk(input, found);
    // By code unit (Array.sort's own order), as the hash always took them: the recorded hashes stay valid.
    files.push(...found.sort());
  }
  return files;
}

/** The SHA-256 of every input's path and contents. */
export function buildInputsHash(root = defaultRoot, files = listInputs(root)): string {
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

/** Each input's size, modification and change time: what must stay as it was for the kept hash to stand. */
function statsOf(root: string, files: string[]): Record<string, string> {
  return Object.fromEntries(
    files.map((file) => {
      const stat = statSync(join(root, file), { bigint: true });
      return [file, `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`];
    }),
  );
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function sameStats(kept: Record<string, string>, now: Record<string, string>): boolean {
  const keys = Object.keys(now);
  return keys.length === Object.keys(kept).length && keys.every((file) => kept[file] === now[file]);
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

export interface InputsCheck {
  /** The inputs' hash now. */
  hash: string;
  /** The hash of the last build's inputs, when one is recorded. */
  recorded: string | undefined;
  /** Whether the hash was read from the kept stats rather than from the files' contents. */
  fromStats: boolean;
  /** Records `hash` as the last build's, with the stats the inputs had when it was taken. */
  record(): void;
}

/** The inputs' hash, taken from their contents only when their stats differ from those kept with the last one. */
export function checkInputs(root = defaultRoot): InputsCheck {
  const stampFile = join(root, cacheDir, stampName);
  const statsFile = join(root, cacheDir, statsName);
  const files = listInputs(root);
  const stats = statsOf(root, files);
  const recorded = readText(stampFile)?.trim() || undefined;
  let kept: { hash?: string; stats?: Record<string, string> } | undefined;
  try {
    kept = JSON.parse(readText(statsFile) ?? "null") ?? undefined;
  } catch {
    kept = undefined;
  }
  const fromStats = recorded !== undefined && kept?.hash === recorded && sameStats(kept.stats ?? {}, stats);
  const hash = fromStats ? recorded : buildInputsHash(root, files);
  const record = () => {
    writeAtomically(stampFile, `${hash}\n`);
    writeAtomically(statsFile, `${JSON.stringify({ hash, stats })}\n`);
  };
  // Contents as recorded, times not (a checkout, a copy): keep the new times, so the next start reads no file.
  if (!fromStats && hash === recorded) record();
  return { hash, recorded, fromStats, record };
}

const bundleDir = (root: string) => pathToFileURL(join(root, "apps/server/dist/"));

/** Why a build is needed; no reason when the last one is current (and so is the server's bundle). */
function buildNeeded(check: InputsCheck, root: string): { reason?: string } {
  if (check.recorded !== check.hash)
    return { reason: check.recorded === undefined ? "no build recorded" : "its inputs changed" };
  const stale = staleBundleReason(bundleDir(root));
  if (stale !== undefined) return { reason: `the server's bundle: ${stale}` };
  for (const built of ["apps/web/dist/index.html", "packages/signin-button/dist/kpi-id-signin.js"]) {
    if (!existsSync(join(root, built))) return { reason: `${built} is missing` };
  }
  return {};
}

/**
 * Builds when the inputs changed, else says the build is current; returns why the server's bundle cannot be used
 * (staleBundleReason: undefined when it can), so that the caller need not hash the bundle's sources again.
 */
export function currentBuild(root = defaultRoot): string | undefined {
  const started = performance.now();
  const check = checkInputs(root);
  const { reason } = buildNeeded(check, root);
  if (reason === undefined) {
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const how = check.fromStats ? "no file changed since the last check" : "contents hashed";
    console.log(`build: current (inputs unchanged, ${check.hash.slice(0, 12)}; ${how}; checked in ${seconds} s)`);
    return undefined;
  }
  console.log(`build: ${reason}; building`);
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The hash and stats taken before the build: an edit made while it ran is seen at the next start.
  check.record();
  return staleBundleReason(bundleDir(root));
}

if (import.meta.main) currentBuild();
