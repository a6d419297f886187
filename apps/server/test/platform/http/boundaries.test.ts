import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../../../", import.meta.url));
const biome = join(root, "node_modules/.bin/biome");

/** A file planted at a path with one import; `crosses` says whether that import breaks a boundary. */
interface Plant {
  path: string;
  from: string;
  crosses: boolean;
}

const plants: Plant[] = [
  // Workspaces reach the server through its package exports.
  { path: "bench/planted.ts", from: "../apps/server/src/app.ts", crosses: true },
  { path: "sandbox/src/planted.ts", from: "../../apps/server/test/support/app.ts", crosses: true },
  // Web: app → features → shared.
  { path: "apps/web/src/lib/planted.ts", from: "@/features/auth/api/password-login.ts", crosses: true },
  { path: "apps/web/src/features/auth/planted.ts", from: "@/app/routes/login-route.tsx", crosses: true },
  // A feature reaches another only through its public surface (issue 76), whatever its folder is called: a console
  // screen added beside the others meets the rule without a line here.
  {
    path: "apps/web/src/features/console-new/components/planted.ts",
    from: "@/features/console-people/components/person-columns.tsx",
    crosses: true,
  },
  { path: "apps/web/src/features/console-new/api/planted.ts", from: "../../account/index.ts", crosses: true },
  { path: "apps/web/src/features/device/components/planted.ts", from: "../../../lib/format.ts", crosses: true },
  {
    path: "apps/web/src/features/account/components/own.ts",
    from: "@/features/account/api/passkeys.ts",
    crosses: true,
  },
  // The allowed directions pass (the server's layers are scripts/dependencies/check.ts's: check-dependencies.test.ts).
  { path: "bench/allowed.ts", from: "@kpi-id/server/testing", crosses: false },
  { path: "apps/web/src/features/auth/allowed.ts", from: "@/lib/api-client.ts", crosses: false },
  {
    path: "apps/web/src/features/console-new/components/allowed.ts",
    from: "@/features/console-shell/index.ts",
    crosses: false,
  },
  {
    path: "apps/web/src/features/account/components/lazy.ts",
    from: "@/features/auth/second-factor-form.ts",
    crosses: false,
  },
  { path: "apps/web/src/features/account/components/sibling.ts", from: "../api/passkeys.ts", crosses: false },
  {
    path: "apps/web/src/features/account/components/helper.test.ts",
    from: "../../../../test/render.tsx",
    crosses: false,
  },
];

const workdir = mkdtempSync(join(tmpdir(), "kpi-boundaries-"));
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

/** The repository's own Biome configuration over a tree of planted files (no git there, so no ignore file). */
function lintPlants(): string {
  const config = JSON.parse(readFileSync(join(root, "biome.json"), "utf8")) as Record<string, unknown>;
  delete config.$schema;
  config.vcs = { enabled: false };
  writeFileSync(join(workdir, "biome.json"), JSON.stringify(config));
  for (const plant of plants) {
    mkdirSync(join(workdir, dirname(plant.path)), { recursive: true });
    writeFileSync(
      join(workdir, plant.path),
      `import { planted } from "${plant.from}";\n\nexport const used = planted;\n`,
    );
  }
  const run = spawnSync(biome, ["lint", "--max-diagnostics=none", "."], { cwd: workdir, encoding: "utf8" });
  expect(run.status, run.stderr).not.toBe(0);
  return `${run.stdout}${run.stderr}`;
}

describe("workspace and web boundaries (biome noRestrictedImports, part of npm run check)", () => {
  const output = lintPlants();
  const flagged = (path: string) =>
    new RegExp(`${path.replaceAll(".", "\\.")}:\\d+:\\d+ lint/style/noRestrictedImports`);

  it.each(plants.filter((plant) => plant.crosses))("refuses $path importing $from", ({ path }) => {
    expect(output).toMatch(flagged(path));
  });

  it.each(plants.filter((plant) => !plant.crosses))("lets $path import $from", ({ path }) => {
    expect(output).not.toMatch(flagged(path));
  });

  it("runs in npm run check", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.check).toContain("biome check .");
  });
});

describe("workspaces apart from imports", () => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] };
  const workspaceOf = (file: string) => manifest.workspaces.find((workspace) => file.startsWith(`${workspace}/`));

  // Biome sees imports only; a triple-slash path reaches another workspace's files just the same.
  it("has no triple-slash reference path into another workspace (declarations go through package exports)", () => {
    const listed = spawnSync("git", ["grep", "-l", "--", "/// <reference path="], { cwd: root, encoding: "utf8" });
    const crossing = listed.stdout
      .split("\n")
      .filter(Boolean)
      .flatMap((file) =>
        [...readFileSync(join(root, file), "utf8").matchAll(/\/\/\/ <reference path="([^"]+)"/g)]
          .map((match) => join(dirname(file), match[1] ?? ""))
          .filter((target) => workspaceOf(target) !== workspaceOf(file))
          .map((target) => `${file} -> ${target}`),
      );
    expect(crossing).toEqual([]);
  });
});
