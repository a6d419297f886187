import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetsToRemove, type BuildRecord, buildsRecord, recordBuild } from "../../../../../scripts/kept-builds.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";

// `npm start` again in a checkout another server is serving from: the web app's build is written beside the
// one in use and published file by file (scripts/build-beside.ts), so neither server ever answers a page whose
// scripts are missing, while the build runs or after it, for a page loaded before it or after.

const root = fileURLToPath(new URL("../../../../../", import.meta.url));
const webDir = join(root, "apps/web");
const builder = join(root, "scripts/build-beside.ts");

const runBuild = (dist: string) =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [builder, "--last", "index.html", "--dist", dist], {
      cwd: webDir,
      // As `npm run build` runs it: vitest's NODE_ENV=test would make vite build the development React.
      env: { ...process.env, NODE_ENV: "production" },
      stdio: "ignore",
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });

const scriptsOf = (page: string) =>
  [...page.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);

describe("a rebuild while two servers serve the same checkout's web app", () => {
  const directory = mkdtempSync(join(tmpdir(), "kpi-id-web-rebuild-"));
  const dist = join(directory, "dist");
  const servers: TestApp[] = [];

  beforeAll(async () => {
    // The build in use: the checkout's (npm test builds first), or one made here.
    if (existsSync(join(webDir, "dist/index.html"))) cpSync(join(webDir, "dist"), dist, { recursive: true });
    else expect(await runBuild(dist)).toBe(0);
    // Made an earlier release's: its entry script under another name (as after a change of the source), the page
    // referring to it. The rebuild writes the current name, so the running page's file must outlive it.
    const page = readFileSync(join(dist, "index.html"), "utf8");
    const entry = scriptsOf(page).find((asset) => asset?.endsWith(".js")) as string;
    const earlier = entry.replace(/-[\w-]+\.js$/, "-earlierbuild.js");
    for (const suffix of ["", ".br", ".gz"]) renameSync(join(dist, entry + suffix), join(dist, earlier + suffix));
    writeFileSync(join(dist, "index.html"), page.replace(entry, earlier));
    // The record of builds (scripts/kept-builds.ts) names the earlier build's files as they now are.
    const record = join(dist, buildsRecord);
    if (existsSync(record)) writeFileSync(record, readFileSync(record, "utf8").replaceAll(entry, earlier));
    for (const suffix of [".br", ".gz"]) rmSync(join(dist, `index.html${suffix}`), { force: true });
    for (let index = 0; index < 2; index++)
      servers.push(await createTestApp("pglite", { WEB_DIST_DIR: dist }, { protocols: [] }));
  }, 240_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    rmSync(directory, { recursive: true, force: true });
  });

  /** Every server's page and each script it names: the failures (none expected). */
  async function failures(): Promise<string[]> {
    const failed: string[] = [];
    for (const [index, server] of servers.entries()) {
      const page = await server.app.inject({ url: "/uk/" });
      if (page.statusCode !== 200) failed.push(`server ${index}: /uk/ ${page.statusCode}`);
      for (const asset of scriptsOf(page.body)) {
        const answer = await server.app.inject({ url: `/${asset}` });
        if (answer.statusCode !== 200) failed.push(`server ${index}: /${asset} ${answer.statusCode}`);
      }
    }
    return failed;
  }

  it("keeps every page and script answering during the build, and the earlier page's scripts after it", async () => {
    const before = await servers[0]?.app.inject({ url: "/uk/" });
    const earlierScripts = scriptsOf(before?.body ?? "");
    expect(earlierScripts.some((asset) => asset?.includes("-earlierbuild.js"))).toBe(true);
    expect(await failures()).toEqual([]);

    // One server restarts: `npm start` rebuilds (its inputs changed) while the other keeps serving.
    await servers[1]?.close();
    servers.pop();
    const building = runBuild(dist);
    let finished = false;
    void building.finally(() => {
      finished = true;
    });
    const seen: string[] = [];
    let rounds = 0;
    while (!finished) {
      seen.push(...(await failures()));
      rounds++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await building).toBe(0);
    expect(rounds).toBeGreaterThan(10);
    expect(seen).toEqual([]);
    servers.push(await createTestApp("pglite", { WEB_DIST_DIR: dist }, { protocols: [] }));

    // Both now answer the new build's page, whose scripts are there; the page loaded before still gets its own.
    const after = await servers[0]?.app.inject({ url: "/uk/" });
    expect(scriptsOf(after?.body ?? "")).not.toEqual(earlierScripts);
    expect(await failures()).toEqual([]);
    for (const server of servers) {
      for (const asset of earlierScripts) expect((await server.app.inject({ url: `/${asset}` })).statusCode).toBe(200);
    }
    expect(existsSync(`${dist}.next-${process.pid}`)).toBe(false);
  }, 300_000);
});

describe("which earlier builds' assets a rebuild keeps", () => {
  const build = (name: string, ...assets: string[]): BuildRecord => ({
    builtAt: name,
    assets: assets.map((asset) => `assets/${asset}`),
  });

  it("keeps the two builds before the current one, and removes the assets of older ones", () => {
    let builds: BuildRecord[] = [];
    for (const name of ["one", "two", "three", "four"]) {
      builds = recordBuild(builds, build(name, `index-${name}.js`, `my-data-${name}.js`, "shared-same.js"));
    }
    expect(builds.map((each) => each.builtAt)).toEqual(["four", "three", "two"]);
    const inDist = ["one", "two", "three", "four"].flatMap((name) => [
      `assets/index-${name}.js`,
      `assets/my-data-${name}.js`,
    ]);
    const alsoThere = ["assets/shared-same.js", "index.html", "locales/uk/common.json"];
    expect(assetsToRemove([...inDist, ...alsoThere], builds)).toEqual(["assets/index-one.js", "assets/my-data-one.js"]);
  });

  it("counts a rebuild that changed nothing once", () => {
    const same = build("again", "index-a.js");
    const builds = recordBuild([build("first", "index-a.js"), build("earlier", "index-0.js")], same);
    expect(builds.map((each) => each.builtAt)).toEqual(["again", "earlier"]);
  });
});
