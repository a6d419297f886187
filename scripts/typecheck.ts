// Type-checks every workspace that has a tsconfig.json and fails if any does.
// (Projects differ in module resolution and lib, so one root tsconfig cannot
// cover them all.) Projects with the same base and compiler options are
// checked as one program, from a tsconfig written under .tmp/typecheck that
// includes each one's files: the server, the sandbox, the demo app, scripts,
// bench and cluster each import the server, and checked apart each checked
// the server's source again (issue 75: 55 CPU-seconds apart, 12 together).
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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
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

/** Options that name a path, read relative to their own tsconfig: a project setting one is checked on its own. */
const pathOptions = ["baseUrl", "paths", "rootDir", "rootDirs", "typeRoots", "outDir", "declarationDir"];

/**
 * What makes projects one program: the same base and compiler options. Undefined for a project that is checked on
 * its own: one whose tsconfig chooses files another way (`files`, `exclude`, `references`) or sets a path option.
 */
function programOf(project: string, config: TsConfig): string | undefined {
  const plain = Object.keys(config).every((key) => ["extends", "compilerOptions", "include"].includes(key));
  const options = config.compilerOptions ?? {};
  if (!plain || pathOptions.some((option) => option in options)) return undefined;
  return JSON.stringify([config.extends ? join(project, config.extends) : null, options]);
}

interface Member {
  project: string;
  config: TsConfig;
}
/** Projects that share a program, by it, and those checked alone. */
const shared = new Map<string, Member[]>();
const alone: string[] = [];
for (const project of allProjects) {
  const config = readTsConfig(join(project, "tsconfig.json"));
  const program = programOf(project, config);
  if (program === undefined) alone.push(project);
  else shared.set(program, [...(shared.get(program) ?? []), { project, config }]);
}

/**
 * What `tsc -p` checks for projects that share a program: a lone project's own folder, else one tsconfig written under
 * .tmp with their base, their options and every project's include paths (TypeScript's default, everything, where a
 * project names none), as seen from there.
 */
function programToCheck([first, ...others]: [Member, ...Member[]]): string {
  if (others.length === 0) return first.project;
  const members = [first, ...others];
  const { project, config } = first;
  const directory = join(".tmp", "typecheck");
  mkdirSync(directory, { recursive: true });
  const fromHere = (path: string) => relative(directory, path);
  const file = join(directory, `${members.map((member) => member.project.replaceAll("/", "-")).join("+")}.json`);
  const combined = {
    ...(config.extends ? { extends: fromHere(join(project, config.extends)) } : {}),
    compilerOptions: config.compilerOptions ?? {},
    include: members.flatMap((member) =>
      (member.config.include ?? ["**/*"]).map((path) => fromHere(join(member.project, path))),
    ),
  };
  writeFileSync(file, `${JSON.stringify(combined, null, 2)}\n`);
  return file;
}

const projects = [...[...shared.values()].map((members) => programToCheck(members as [Member, ...Member[]])), ...alone];

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
