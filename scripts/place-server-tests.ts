// Prints the moves that put the server's tests in a tree mirroring apps/server/src (docs/architecture.md
// "Tests"); with --apply performs them with `git mv` and fixes the relative imports in and to the moved files.
// After applying, turn on the `server-tests-mirror-src` rule in scripts/dependencies/rules.ts.
//   node scripts/place-server-tests.ts [--apply]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { planTestPlacement } from "./dependencies/test-placement.ts";
import { relocate } from "./relocate.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const tracked = execFileSync("git", ["ls-files", "-z", "apps/server/test"], { cwd: repoRoot, encoding: "utf8" })
  .split("\0")
  .filter((path) => path !== "");
const { moves, unplaced } = planTestPlacement(tracked);
for (const move of moves) console.log(`${move.from} → ${move.to}`);
for (const path of unplaced)
  console.log(`unplaced (give it a prefix in scripts/dependencies/test-placement.ts): ${path}`);
console.log(`${moves.length} move(s), ${unplaced.length} unplaced`);
if (process.argv.includes("--apply")) {
  const rewritten = relocate(repoRoot, new Map(moves.map((move) => [move.from, move.to])));
  console.log(`moved ${moves.length} file(s); rewrote relative paths in ${rewritten.length}`);
  // A rewritten path can change the order of a file's imports: Biome puts them back in its order.
  execFileSync("npx", ["biome", "check", "--write", "apps/server/test"], { cwd: repoRoot, stdio: "inherit" });
}
