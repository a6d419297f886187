import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInputsHash, checkInputs, currentBuild } from "../../../../scripts/build-if-changed.ts";

// `npm start` builds only when what the build is made from changed (scripts/build-if-changed.ts, issue 62). The
// inputs' content hash is taken again only when a file's size or times moved; these checks keep what the second
// start relies on: an unchanged tree builds nothing and reads no file, a changed source always builds, even when
// it keeps its size and modification time, and a file that only moved in time or is a test builds nothing.
// The checkout here is a small one in a temporary folder, whose `npm run build` writes what npm start checks and
// counts its runs.

const buildScript = `
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
const digest = createHash("sha256").update(readFileSync("apps/server/src/server.ts")).digest("hex");
for (const folder of ["apps/server/dist", "apps/web/dist", "packages/signin-button/dist"]) mkdirSync(folder, { recursive: true });
writeFileSync("apps/server/dist/build.json", JSON.stringify({ builtFrom: { "../src/server.ts": digest } }));
writeFileSync("apps/web/dist/index.html", "<!doctype html>");
writeFileSync("packages/signin-button/dist/kpi-id-signin.js", "");
appendFileSync("builds.log", "built\\n");
`;

const files: Record<string, string> = {
  "package.json": JSON.stringify({ name: "checkout", private: true, scripts: { build: "node build.mjs" } }),
  "build.mjs": buildScript,
  "apps/server/src/server.ts": "export const answer = 41;\n",
  "apps/server/test/server.test.ts": "// a test\n",
  "apps/web/src/main.tsx": "export const page = 'one';\n",
  "packages/contracts/src/index.ts": "export {};\n",
};

describe("npm start's build check in a checkout", () => {
  const root = mkdtempSync(join(tmpdir(), "kpi-id-build-check-"));
  const at = (path: string) => join(root, path);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(at(path)), { recursive: true });
    writeFileSync(at(path), text);
  };
  const builds = () => readFileSync(at("builds.log"), "utf8").split("\n").filter(Boolean).length;

  // Whole seconds, which utimes sets exactly (a Date would lose the nanoseconds the check compares).
  const longAgo = 1_700_000_000;
  beforeAll(() => {
    for (const [path, text] of Object.entries(files)) {
      write(path, text);
      utimesSync(at(path), longAgo, longAgo);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("builds a checkout with no build recorded, and the bundle it made is then current", () => {
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(1);
  }, 60_000);

  it("builds nothing again, and takes the hash from the files' stats without reading them", () => {
    const check = checkInputs(root);
    expect(check.fromStats).toBe(true);
    expect(check.hash).toBe(check.recorded);
    expect(check.hash).toBe(buildInputsHash(root));
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(1);
  });

  it("builds when a source changed, even with the same size and the same modification time", () => {
    const path = at("apps/server/src/server.ts");
    const before = statSync(path, { bigint: true });
    writeFileSync(path, "export const answer = 42;\n");
    utimesSync(path, longAgo, longAgo);
    const after = statSync(path, { bigint: true });
    expect([after.size, after.mtimeNs]).toEqual([before.size, before.mtimeNs]);
    expect(checkInputs(root).fromStats).toBe(false);
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(2);
  }, 60_000);

  it("builds nothing for a file touched without a change, and reads no file at the start after", () => {
    const later = new Date(Date.now() + 5_000);
    utimesSync(at("apps/web/src/main.tsx"), later, later);
    const touched = checkInputs(root);
    expect(touched.fromStats).toBe(false);
    expect(touched.hash).toBe(touched.recorded);
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(2);
    expect(checkInputs(root).fromStats).toBe(true);
  });

  it("builds nothing for a changed test, and builds for a new source file", () => {
    write("apps/server/test/server.test.ts", "// another test\n");
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(2);
    write("packages/contracts/src/more.ts", "export const more = 1;\n");
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(3);
  }, 60_000);

  it("builds when the bundle no longer matches its sources, though the inputs' record says current", () => {
    // As when the bundle was made from other sources than the ones recorded (a copied dist/).
    const digest = createHash("sha256").update("something else").digest("hex");
    writeFileSync(at("apps/server/dist/build.json"), JSON.stringify({ builtFrom: { "../src/server.ts": digest } }));
    expect(checkInputs(root).fromStats).toBe(true);
    expect(currentBuild(root)).toBeUndefined();
    expect(builds()).toBe(4);
  }, 60_000);
});
