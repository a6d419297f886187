// A workspace's `vite build` written beside its dist/ (dist.next-<pid>) and then published into dist/ file by file,
// each by a rename, so a server serving dist/ from the same checkout never sees it empty or half written: new
// hashed assets first, the entry page (named by --last) after them; the assets of the two builds before it stay
// (kept-builds.ts: a page loaded from the previous release, during a rolling upgrade, still finds its lazy
// chunks), older ones go.
// Usage (from the workspace): node ../../scripts/build-beside.ts [--last index.html] [-- vite options]
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { assetsToRemove, readBuilds, recordBuild, writeBuilds } from "./kept-builds.ts";

const { values, positionals } = parseArgs({
  options: { last: { type: "string" }, dist: { type: "string", default: "dist" } },
  allowPositionals: true,
});
const dist = values.dist ?? "dist";
const next = `${dist}.next-${process.pid}`;

function filesUnder(root: string, folder = root): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(folder, entry.name)) : [relative(root, join(folder, entry.name))],
  );
}

const sameContents = (a: string, b: string) =>
  existsSync(b) && statSync(a).size === statSync(b).size && readFileSync(a).equals(readFileSync(b));

/** `from` put at `to` by a rename of a copy beside it: a reader sees the old file or the new, never a part. */
function publish(from: string, to: string, always: boolean): void {
  if (!always && sameContents(from, to)) return;
  mkdirSync(dirname(to), { recursive: true });
  const partial = `${to}.partial-${process.pid}`;
  copyFileSync(from, partial);
  renameSync(partial, to);
}

try {
  const vite = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url));
  const build = spawnSync(process.execPath, [vite, "build", "--outDir", next, ...positionals], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const earlierFiles = filesUnder(dist);
  const built = filesUnder(next);
  const isEntry = (file: string) => values.last !== undefined && file.startsWith(values.last);
  for (const file of [...built.filter((file) => !isEntry(file)), ...built.filter(isEntry)]) {
    // The entry page is written even when unchanged: the server reads the translations again when its time moves.
    publish(join(next, file), join(dist, file), isEntry(file));
  }
  // The builds dist/ keeps assets for: this one and the two before it. Every other file was just replaced or is
  // written by another step (the integration manual), so it stays.
  // A build without hashed assets (the sign-in script's) keeps no record.
  const assets = built.filter((file) => file.startsWith("assets/")).sort();
  if (assets.length > 0) {
    const builds = recordBuild(readBuilds(dist, earlierFiles), { builtAt: new Date().toISOString(), assets });
    writeBuilds(dist, builds);
    for (const file of assetsToRemove(filesUnder(dist), builds)) rmSync(join(dist, file));
  }
} finally {
  rmSync(next, { recursive: true, force: true });
}
