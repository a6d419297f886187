// Type-checks every workspace that has a tsconfig.json and fails if any does.
// (Projects differ in module resolution and lib, so one root tsconfig cannot
// cover them all.) The Node projects that share one set of compiler options
// (the server, the sandbox, the demo app, scripts, bench, cluster) are checked
// as one program, tsconfig.node-projects.json: each of them imports the
// server, and checked apart each checked the server's source again (issue 75:
// 55 CPU-seconds apart, 12 together). A project whose options or files part
// from that file's is checked on its own again, so nothing goes unchecked.
//
// The checking compiler is TypeScript 7, the native one, installed under the
// alias @typescript/native (issue 41: several times less CPU than 6.x). The
// plain `typescript` package stays 6.x because dependency-cruiser
// (scripts/check-dependencies.ts) needs its JavaScript API, which TypeScript 7
// no longer ships. Both packages declare a `tsc` bin and npm links either one
// as node_modules/.bin/tsc, so the compiler is called by its own path here.
//
// Each compiler runs single-threaded, one per core: on the 2-core CI machine
// tsc's own checker threads cost twice the CPU of one thread for the same
// project, while separate projects share nothing. Output is held per project
// and printed whole, so errors of two projects never interleave.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import rootPackage from "../package.json" with { type: "json" };

const nativePackageJson = createRequire(import.meta.url).resolve("@typescript/native/package.json");
const { version } = JSON.parse(readFileSync(nativePackageJson, "utf8")) as { version: string };
if (!version.startsWith("7.")) throw new Error(`@typescript/native is TypeScript ${version}, expected 7.x`);
const tsc = join(dirname(nativePackageJson), "bin", "tsc");

const allProjects = ["scripts", "bench", "cluster", ...rootPackage.workspaces].filter((dir) =>
  existsSync(join(dir, "tsconfig.json")),
);

interface TsConfig {
  extends?: string;
  compilerOptions?: Record<string, unknown>;
  include?: string[];
}
/** A tsconfig.json: JSON with comments on lines of their own, as this repository writes them. */
const readTsConfig = (file: string): TsConfig =>
  JSON.parse(readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "")) as TsConfig;

const combinedFile = "tsconfig.node-projects.json";
const combined = readTsConfig(combinedFile);
/**
 * Checked by the combined program: the same base and options, every one of its include paths in it, and nothing else
 * that chooses files or settings (`files`, `exclude`, `references`: such a project is checked on its own).
 */
function inCombined(project: string): boolean {
  const own = readTsConfig(join(project, "tsconfig.json"));
  const base = (config: TsConfig, dir: string) => (config.extends ? join(dir, config.extends) : undefined);
  return (
    Object.keys(own).every((key) => ["extends", "compilerOptions", "include"].includes(key)) &&
    base(own, project) === base(combined, ".") &&
    isDeepStrictEqual(own.compilerOptions, combined.compilerOptions) &&
    (own.include ?? []).every((path) => combined.include?.includes(join(project, path)))
  );
}
const projects = [combinedFile, ...allProjects.filter((project) => !inCombined(project))];

/** Checks one project; resolves with whether it passed, after printing its output. */
function check(project: string): Promise<boolean> {
  return new Promise((resolve) => {
    // Output is piped, so colours are asked for only when they would have reached a terminal anyway.
    const pretty = process.stdout.isTTY ? ["--pretty"] : [];
    const child = spawn(process.execPath, [tsc, "-p", project, "--singleThreaded", ...pretty]);
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code) => {
      process.stdout.write(Buffer.concat(output));
      const ok = code === 0;
      console.log(`typecheck ${project}: ${ok ? "ok" : "FAILED"}`);
      resolve(ok);
    });
  });
}

console.log(`typecheck with TypeScript ${version}`);
const queue = [...projects];
let failed = 0;
async function worker(): Promise<void> {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    if (!(await check(project))) failed++;
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), projects.length) }, worker));
process.exit(failed > 0 ? 1 : 0);
