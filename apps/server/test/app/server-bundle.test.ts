import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleBundleReason } from "../../bin/server-module.js";
import { isAscii } from "../../scripts/ascii-chunks.ts";
import { productionEnvironment, productionNodeFlags } from "../../src/platform/production-process.ts";
import { aboveModelDatabase, createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { freePort } from "../support/listening.ts";

// Production runs the bundle `npm run build` makes (scripts/build.ts, issue 41's memory): these tests build
// one of their own and start it as production does, and check the rule that keeps an old bundle from hiding
// an edited source (bin/server-module.js).

describe("the bundle's freshness rule", () => {
  let root = "";
  let distUrl = new URL("file:///nonexistent/");
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
  const writeSource = (name: string, text: string) => {
    mkdirSync(join(root, "src"), { recursive: true });
    writeFileSync(join(root, name), text);
  };
  const writeRecord = (builtFrom: Record<string, string>) => {
    mkdirSync(join(root, "dist"), { recursive: true });
    writeFileSync(join(root, "dist/build.json"), JSON.stringify({ builtFrom }));
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "kpi-id-bundle-rule-"));
    distUrl = pathToFileURL(`${root}/dist/`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("uses the bundle only while every file it was made from holds what it held at the build", () => {
    expect(staleBundleReason(distUrl)).toBe("there is no build (npm run build makes it)");
    writeSource("src/a.ts", "export const a = 1;\n");
    writeSource("src/b.ts", "export const b = 2;\n");
    writeRecord({ "../src/a.ts": sha256("export const a = 1;\n"), "../src/b.ts": sha256("export const b = 2;\n") });
    expect(staleBundleReason(distUrl)).toBeUndefined();

    // An edit, even one that keeps the file's old modification time (a copy with `cp -p`, `rsync -a`).
    writeSource("src/b.ts", "export const b = 3;\n");
    utimesSync(join(root, "src/b.ts"), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(staleBundleReason(distUrl)).toBe("../src/b.ts changed since it was built");

    writeSource("src/b.ts", "export const b = 2;\n");
    writeRecord({
      "../src/a.ts": sha256("export const a = 1;\n"),
      "../src/b.ts": sha256("export const b = 2;\n"),
      "../src/removed.ts": sha256(""),
    });
    expect(staleBundleReason(distUrl)).toBe("../src/removed.ts, which it was built from, is gone");
  });
});

const kind = aboveModelDatabase;

describe(`a fresh bundle started as production starts it (${kind})`, () => {
  // Inside the server's directory, so that the packages kept outside the bundle resolve from node_modules.
  const outDir = fileURLToPath(new URL(`../../.tmp/bundle-test-${process.pid}/`, import.meta.url));
  let dataDir = "";
  let database: TestDatabase | undefined;
  let child: ChildProcess | undefined;
  let stderr = "";
  let url = "";

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "kpi-id-bundle-"));
    const build = spawnSync(
      process.execPath,
      [fileURLToPath(new URL("../../scripts/build.ts", import.meta.url)), "--out-dir", outDir],
      { encoding: "utf8" },
    );
    if (build.status !== 0) throw new Error(`the build failed: ${build.stderr}`);
    if (kind === "postgres") database = await createTestDatabase("postgres");
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // The bundle's entry starts the service when run directly, as src/server.ts does.
    child = spawn(process.execPath, [...productionNodeFlags, join(outDir, "server.mjs")], {
      env: {
        PATH: process.env.PATH ?? "",
        ...productionEnvironment,
        NODE_ENV: "production",
        PUBLIC_URL: url,
        HOST: "127.0.0.1",
        PORT: String(port),
        SESSION_SECRET: "server-bundle-test-secret-0123456789-abcdefghijklmn",
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? "",
        LOG_LEVEL: "warn",
        WEB_DIST_DIR: "/nonexistent-web-dist",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const started = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (started.exitCode !== null) throw new Error(`the bundle exited (${started.exitCode}): ${stderr}`);
      const status = await fetch(`${url}/ready`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the bundle did not answer /ready in 60 s: ${stderr}`);
  }, 90_000);

  afterAll(async () => {
    const running = child;
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      // The service finishes in 15 s at most; a child that hangs must not outlive the run.
      const deadline = setTimeout(() => running.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(deadline);
    }
    await database?.dispose();
    rmSync(outDir, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("records every file it was made from, and is current right after the build", () => {
    const { builtFrom } = JSON.parse(readFileSync(join(outDir, "build.json"), "utf8")) as {
      builtFrom: Record<string, string>;
    };
    // A module imported only for its side effects leaves no code of its own in a chunk, yet is an input.
    const inputs = Object.keys(builtFrom).map((input) => new URL(input, pathToFileURL(outDir)).pathname);
    const server = fileURLToPath(new URL("../../src/", import.meta.url));
    expect(inputs).toEqual(
      expect.arrayContaining([`${server}sign-in/bankid/crypto/dstu-curves.ts`, `${server}server.ts`]),
    );
    expect(Object.keys(builtFrom).some((input) => input.endsWith("/node_modules/zod/package.json"))).toBe(true);
    expect(staleBundleReason(pathToFileURL(outDir))).toBeUndefined();
  });

  it("is ASCII throughout, so V8 holds each module's source at one byte a character, its licences still in it", () => {
    const modules = readdirSync(outDir).filter((name) => name.endsWith(".mjs"));
    expect(modules.length).toBeGreaterThan(1);
    for (const name of modules)
      expect({ name, ascii: isAscii(readFileSync(join(outDir, name), "utf8")) }).toEqual({ name, ascii: true });
    // The bundle's text holds its Ukrainian (messages, claims' names) as escapes, and keeps its licence comments.
    const main = readFileSync(join(outDir, "server.mjs"), "utf8");
    expect(main).toContain("@license");
    expect(main).toMatch(/\\u04[0-5][0-9a-f]/);
  });

  it("reads its packages' JSON tables as the tables themselves (the build has them parsed at run time)", async () => {
    // unhomoglyph requires its data.json; a table read as a module namespace would map no confusable at all.
    const chunk = readdirSync(outDir).find((name) => name.startsWith("unhomoglyph-"));
    const { default: unhomoglyph } = (await import(pathToFileURL(join(outDir, String(chunk))).href)) as {
      default: (text: string) => string;
    };
    expect(unhomoglyph("\u041a\u0420\u0406 \u0421\u0430mp\u0443s")).toBe("KPl Carnpys");
    // mime-db, through koa's mime-types: the type and charset of the provider's JSON answers.
    const discovery = await fetch(`${url}/oidc/.well-known/openid-configuration`);
    await discovery.arrayBuffer();
    expect(discovery.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("migrates a new database, publishes OpenID Connect and SAML metadata, and refuses a wrong password in words", async () => {
    const discovery = await fetch(`${url}/oidc/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(`${url}/oidc`);

    // Loaded on first use from node_modules, with the XML schemas the bundle finds in the source tree.
    const metadata = await fetch(`${url}/saml/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain("IDPSSODescriptor");

    const refused = await fetch(`${url}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url, "accept-language": "uk" },
      body: JSON.stringify({ username: "nobody-here", password: "not the password at all" }),
    });
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { code: string; message: string };
    expect(body.code).toBe("auth.invalid_credentials");
    expect(body.message).not.toBe(body.code);
    expect(stderr).toBe("");
  });
});
