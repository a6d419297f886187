// Two releases of the web app for the browser's rolling upgrade: the current source's build (the checkout's own
// dist/ when current, else built), and a second release (the same source with its entry module changed, so every
// chunk that imports the entry gets a new hashed name) built over a copy of it, as an upgrade's `npm run build` or
// image build publishes it: through scripts/build-beside.ts, which keeps the previous builds' assets
// (scripts/kept-builds.ts).
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { checkInputs } from "../../scripts/build-if-changed.ts";

const repositoryRoot = new URL("../../", import.meta.url).pathname;
const builder = join(repositoryRoot, "scripts/build-beside.ts");

/** `npm run build`'s web part, from `webDir`, published into `dist`; its output in `log`. */
function buildWeb(webDir: string, dist: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builder, "--last", "index.html", "--dist", dist], {
      cwd: webDir,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      appendFileSync(log, output);
      if (code === 0) resolve();
      else reject(new Error(`the web build in ${webDir} failed (${code}); see ${log}`));
    });
  });
}

/** A copy of apps/web beside links to the checkout's packages, whose entry module differs from the checkout's. */
function changedWebApp(workDir: string): string {
  const root = join(workDir, "web-release-b");
  const webDir = join(root, "apps/web");
  mkdirSync(join(root, "apps"), { recursive: true });
  cpSync(join(repositoryRoot, "apps/web"), webDir, {
    recursive: true,
    filter: (source) => !/\/(dist|node_modules)(\/|$)|\/dist\.next-/.test(source),
  });
  for (const shared of ["node_modules", "packages", "tsconfig.base.json"])
    symlinkSync(join(repositoryRoot, shared), join(root, shared));
  // A change of source, as a release makes: the entry module, which every lazy chunk imports from.
  appendFileSync(join(webDir, "src/main.tsx"), '\ndocument.documentElement.dataset.release = "b";\n');
  return webDir;
}

export interface WebReleases {
  /** The previous release's dist/. */
  previous: string;
  /** The new release's dist/: its build published over a copy of the previous one. */
  next: string;
  /** The hashed assets each build made, by name. */
  previousAssets: string[];
  nextAssets: string[];
}

const builtAssets = (dist: string) =>
  (JSON.parse(readFileSync(join(dist, ".builds.json"), "utf8")) as { builds: { assets: string[] }[] }).builds[0]
    ?.assets ?? [];

export async function buildWebReleases(workDir: string): Promise<WebReleases> {
  const log = join(workDir, "web-builds.log");
  const previous = join(workDir, "web-release-a");
  // The checkout's own build, when it is the current source's (npm test and npm start build when an input changed:
  // scripts/build-if-changed.ts, whose record says so), copied: the previous release without a third build of the
  // same source. `npm run test:cluster` alone may find an older build there, and then builds as before.
  const checkoutDist = join(repositoryRoot, "apps/web/dist");
  const inputs = checkInputs(repositoryRoot);
  if (inputs.recorded === inputs.hash && existsSync(join(checkoutDist, ".builds.json"))) {
    cpSync(checkoutDist, previous, { recursive: true });
  } else {
    await buildWeb(join(repositoryRoot, "apps/web"), previous, log);
  }
  const next = join(workDir, "web-release-b-dist");
  cpSync(previous, next, { recursive: true });
  await buildWeb(changedWebApp(workDir), next, log);
  return { previous, next, previousAssets: builtAssets(previous), nextAssets: builtAssets(next) };
}
