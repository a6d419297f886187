// The dependency check (`npm run check`): the structure rules (issue 58), which scripts/dependencies/check.ts holds
// and runs on a tree (the checker's own tests call it in their process), this script on the repository or --root:
// - imports (dependency-cruiser, each part with its own tsconfig so the web app's `@/` paths resolve): no circle,
//   no upward import between the server's layers, nothing imports app.ts/server.ts, the model's inner order,
//   model/sessions imports no protocol (the protocols read from their folders), and protocols do not reach into
//   sign-in methods;
// - sources (scripts/dependencies/source-rules.ts): SQL only in model/* and platform/db, each table written only
//   by its owner (scripts/dependencies/table-owners.ts, also the table in docs/architecture.md), Fastify only in
//   the route layers and platform/http, no model or other platform module reaching platform/http or Fastify
//   through a chain of imports, and the server's tests mirroring src/;
// - areas (scripts/dependencies/areas.ts, issue 76): imports into model/<area> only through its surface, a table
//   named only in its owner's folder, no loop between areas; and the layout (layout.ts): the server's folders are
//   its layers, and docs/architecture.md's layer table and the README's Layout name what the tree holds.
// Biome keeps the web app's import direction and the rule that other workspaces reach the server by its exports.
//   node scripts/check-dependencies.ts [--root <dir>] [--enforce <rule>] [--write-owner-table]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { checkDependencies } from "./dependencies/check.ts";
import { ownerTableDoc, withOwnerTable } from "./dependencies/owner-table.ts";

const { values: options } = parseArgs({
  options: {
    root: { type: "string" },
    enforce: { type: "string", multiple: true, default: [] },
    "write-owner-table": { type: "boolean", default: false },
  },
});
const root = resolve(options.root ?? fileURLToPath(new URL("..", import.meta.url)));

if (options["write-owner-table"]) {
  const doc = join(root, ownerTableDoc);
  writeFileSync(doc, withOwnerTable(readFileSync(doc, "utf8")));
  console.log(`rewrote the table of owners in ${ownerTableDoc}`);
}
const violations = await checkDependencies({ root, enforce: options.enforce, ownTree: options.root === undefined });
process.exit(violations === 0 ? 0 : 1);
