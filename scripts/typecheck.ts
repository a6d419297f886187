// Type-checks every workspace that has a tsconfig.json, one after another,
// and fails if any does. (Projects differ in module resolution and lib, so
// one root tsconfig cannot cover them all.)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import rootPackage from "../package.json" with { type: "json" };

const projects = ["scripts", "bench", "cluster", ...rootPackage.workspaces].filter((dir) =>
  existsSync(join(dir, "tsconfig.json")),
);
let failed = 0;
for (const project of projects) {
  const result = spawnSync("tsc", ["-p", project], { stdio: "inherit", shell: false });
  const ok = result.status === 0;
  if (!ok) failed++;
  console.log(`typecheck ${project}: ${ok ? "ok" : "FAILED"}`);
}
process.exit(failed > 0 ? 1 : 0);
