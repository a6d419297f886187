import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serverVersion } from "../src/platform/release/version.ts";
import { runCli } from "../src/surfaces/cli/main.ts";
import { cliTestEnv } from "./support/cli.ts";

const repositoryFile = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

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
