// Which hashed assets a dist/ keeps after a build: the new build's, and those of the builds before it, up to
// `previousBuildsKept` of them. A page loaded from an earlier build (in a tab left open, or during a rolling
// upgrade, from an instance still on the previous release) asks later for its lazy chunks by their old names:
// the My data dialog, the button wizard, the console. The record of builds lives in dist/.builds.json, written
// by build-beside.ts; a dist/ made before that record counts what it holds as one earlier build.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The current build and the two before it: a rolling upgrade spans two releases, a tab left open a third. */
export const previousBuildsKept = 2;
export const buildsRecord = ".builds.json";

export interface BuildRecord {
  builtAt: string;
  /** Its files under assets/ (each hashed name, with its .br and .gz). */
  assets: string[];
}

const sameAssets = (a: BuildRecord, b: BuildRecord) =>
  a.assets.length === b.assets.length && a.assets.every((asset) => b.assets.includes(asset));

/** The record after `current`: newest first, an unchanged rebuild counted once, at most `kept` earlier builds. */
export function recordBuild(earlier: BuildRecord[], current: BuildRecord, kept = previousBuildsKept): BuildRecord[] {
  return [current, ...earlier.filter((build) => !sameAssets(build, current))].slice(0, kept + 1);
}

/** The asset files of `inDist` that no recorded build names: the ones to remove. */
export function assetsToRemove(inDist: string[], builds: BuildRecord[]): string[] {
  const kept = new Set(builds.flatMap((build) => build.assets));
  return inDist.filter((file) => file.startsWith("assets/") && !kept.has(file));
}

/** The builds dist/ has served, newest first; before any record, what its assets/ holds counts as one. */
export function readBuilds(dist: string, assetsInDist: string[]): BuildRecord[] {
  const file = join(dist, buildsRecord);
  if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { builds: BuildRecord[] }).builds;
  const assets = assetsInDist.filter((each) => each.startsWith("assets/"));
  return assets.length === 0 ? [] : [{ builtAt: "before the record of builds", assets }];
}

/** The record written beside its place and renamed over it, as every published file is. */
export function writeBuilds(dist: string, builds: BuildRecord[]): void {
  const partial = `${join(dist, buildsRecord)}.partial-${process.pid}`;
  writeFileSync(partial, `${JSON.stringify({ builds }, null, 2)}\n`);
  renameSync(partial, join(dist, buildsRecord));
}
