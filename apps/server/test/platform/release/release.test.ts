import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { serverVersion } from "../../../src/platform/release/version.ts";
import { runCli } from "../../../src/surfaces/cli/main.ts";
import { cliTestEnv } from "../../support/cli.ts";
import { freePort } from "../../support/listening.ts";

const repositoryFile = (path: string) => readFileSync(new URL(`../../../../../${path}`, import.meta.url), "utf8");

describe("the release's version", () => {
  it("is a semantic version shared by the root package, the server's package and the changelog's newest entry", () => {
    expect(serverVersion).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    const root = JSON.parse(repositoryFile("package.json")) as { version: string };
    expect(root.version).toBe(serverVersion);
    const newestEntry = repositoryFile("CHANGELOG.md").match(/^## (\S+)/m)?.[1];
    expect(newestEntry).toBe(serverVersion);
  });

  it("is printed by kpi-id --version without configuration or a database", async () => {
    for (const flag of ["--version", "version"]) {
      const out: string[] = [];
      // A production environment with nothing set would refuse to load: --version must not need it.
      const code = await runCli([flag], { env: { NODE_ENV: "production" }, stdout: (line) => out.push(line) });
      expect(code).toBe(0);
      expect(out).toEqual([serverVersion]);
    }
  });

  it("is listed in the CLI's usage", async () => {
    const out: string[] = [];
    await runCli(["help"], { env: cliTestEnv, stdout: (line) => out.push(line) });
    expect(out.join("\n")).toMatch(/--version\s+print this release's version/);
  });
});

describe("npm run release", () => {
  const root = fileURLToPath(new URL("../../../../../", import.meta.url));
  const work = mkdtempSync(join(tmpdir(), "kpi-id-release-"));
  const out = join(work, "release");
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  });
  const name = `kpi-id-${serverVersion}`;
  const tarball = `${name}-${process.platform}-${process.arch}.tar.gz`;

  // The build `npm test` makes before the suite (npm run build); an image name podman has not got, so the test
  // never tags one.
  const printed = execFileSync(
    process.execPath,
    ["scripts/release.ts", "--skip-build", "--out", out, "--image", "localhost/kpi-id-release-test:absent"],
    { cwd: root, encoding: "utf8" },
  );
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", join(out, tarball), "-C", unpacked]);
  const installed = join(unpacked, name);

  it("writes the tarball, the changelog's section and SHA256SUMS that sha256sum -c accepts", () => {
    expect(printed).toContain(`release ${serverVersion}`);
    expect(printed).toMatch(/image: .*(kpi-id:|podman is not installed)/);
    const sums = readFileSync(join(out, "SHA256SUMS"), "utf8").trim().split("\n");
    expect(sums.map((line) => line.split("  ")[1])).toEqual([tarball, `${name}-CHANGES.md`]);
    for (const line of sums) {
      const [digest, file = ""] = line.split("  ");
      expect(
        createHash("sha256")
          .update(readFileSync(join(out, file)))
          .digest("hex"),
      ).toBe(digest);
    }
    expect(execFileSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: out, encoding: "utf8" })).toContain(`${tarball}: OK`);
    const changes = readFileSync(join(out, `${name}-CHANGES.md`), "utf8");
    expect(changes.startsWith(`## ${serverVersion} `)).toBe(true);
    expect(repositoryFile("CHANGELOG.md")).toContain(changes.trimEnd());
    // One release's section: its own heading and none of the next.
    expect(changes.match(/^## /gm)).toHaveLength(1);
  });

  it("carries the built server and its production dependencies, not the sources of the web app or the tests", () => {
    const listed = execFileSync("tar", ["-tzf", join(out, tarball)], { encoding: "utf8", maxBuffer: 64 << 20 })
      .trim()
      .split("\n");
    expect(listed.every((path) => path.startsWith(`${name}/`))).toBe(true);
    for (const path of [
      "apps/server/bin/kpi-id-server.js",
      "apps/server/dist/server.mjs",
      "apps/server/src/platform/db/migrations/",
      "apps/web/dist/index.html",
      "packages/signin-button/dist/kpi-id-signin.js",
      "deploy/systemd/kpi-id.service",
      "node_modules/fastify/package.json",
      "node_modules/@electric-sql/pglite/package.json",
      "node_modules/@kpi-id/contracts",
    ]) {
      expect(
        listed.some((each) => each.startsWith(`${name}/${path}`)),
        path,
      ).toBe(true);
    }
    // The tracing SDK (loaded only with OTEL_EXPORTER_OTLP_ENDPOINT) is where npm put it: in the server's own
    // node_modules when its versions differ from the root's, which a list of the root's alone left out.
    expect(listed.some((each) => each.endsWith("/@opentelemetry/sdk-trace/package.json"))).toBe(true);
    for (const absent of ["apps/server/test/", "apps/web/src/", "e2e/", "node_modules/vitest/", "node_modules/vite/"]) {
      expect(
        listed.filter((each) => each.startsWith(`${name}/${absent}`)),
        absent,
      ).toEqual([]);
    }
  });

  // Unpacks the tarball and starts its bundle as production does (a new embedded database on disk): 36 s of the
  // default 60 in a full run on two cores, too near it for a slower machine.
  it("unpacked, runs its bundle: the version, then /health with the production command", {
    timeout: 180_000,
  }, async () => {
    const current = execFileSync(
      process.execPath,
      [
        "-e",
        "import('./apps/server/bin/server-module.js').then((m) => console.log(m.staleBundleReason() ?? 'current'))",
      ],
      { cwd: installed, encoding: "utf8" },
    );
    expect(current.trim()).toBe("current");
    const version = execFileSync(process.execPath, ["apps/server/bin/kpi-id.js", "--version"], {
      cwd: installed,
      encoding: "utf8",
      env: { PATH: process.env.PATH, NODE_ENV: "production" },
    });
    expect(version.trim()).toBe(serverVersion);

    const port = await freePort();
    server = spawn(process.execPath, ["--max-semi-space-size=2", "--expose-gc", "apps/server/bin/kpi-id-server.js"], {
      cwd: installed,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        PUBLIC_URL: "https://id.kpi.ua",
        SESSION_SECRET: "Zt4p8Qw2-release-tarball-9fJk3LmN0bXc7Vd",
        DATA_DIR: join(work, "data"),
        HOST: "127.0.0.1",
        PORT: String(port),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    server.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let health: { status?: string; version?: string } = {};
    for (let attempt = 0; attempt < 600 && health.status === undefined; attempt += 1) {
      if (server.exitCode !== null) throw new Error(`the unpacked server exited: ${stderr}`);
      const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (answer?.ok) health = (await answer.json()) as typeof health;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(health).toEqual({ status: "ok", version: serverVersion });
    // It ran the bundle: the source would have said so on stderr.
    expect(stderr).not.toContain("running the server's TypeScript source");
  });
});
