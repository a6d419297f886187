// The dependency check (`npm run check`), all of the structure rules in one place (issue 58):
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
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cruise, type ICruiseOptions, type IForbiddenRuleType } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { allowlist } from "./dependencies/allowlist.ts";
import { serverLayers } from "./dependencies/layout.ts";
import { ownerTableDoc, withOwnerTable } from "./dependencies/owner-table.ts";
import { sourceRules } from "./dependencies/rules.ts";
import { readSources } from "./dependencies/sources.ts";

const { values: options } = parseArgs({
  options: {
    root: { type: "string" },
    enforce: { type: "string", multiple: true, default: [] },
    "write-owner-table": { type: "boolean", default: false },
  },
});
const root = resolve(options.root ?? fileURLToPath(new URL("..", import.meta.url)));
process.chdir(root);

/** Each part of the repository with the tsconfig that resolves its imports. */
const parts = [
  { name: "web app", paths: ["apps/web/src", "apps/web/test"], tsConfig: "apps/web/tsconfig.json" },
  {
    name: "server, packages, sandbox, samples, tests and tools",
    paths: ["apps/server", "packages", "sandbox", "examples", "e2e", "scripts", "bench", "cluster"],
    tsConfig: "tsconfig.base.json",
  },
];

export { serverLayers };

const upwardImports: IForbiddenRuleType[] = serverLayers.slice(0, -1).map((layer, index) => ({
  name: `no-upward-import-from-${layer}`,
  comment: `apps/server/src/${layer} imports only its own layer and those below it (issue 42).`,
  severity: "error",
  from: { path: `^apps/server/src/${layer}/` },
  to: { path: `^apps/server/src/(${serverLayers.slice(index + 1).join("|")})/` },
}));

/** The server's protocols, read from their folders (apps/server/src/protocols/*): a new one is covered at once. */
function protocolFolders(): string[] {
  const folder = "apps/server/src/protocols";
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

const protocols = protocolFolders();

/**
 * Sessions end through one path that calls the participants the protocols register (model/sessions/sign-out.ts,
 * issue 74): the sessions' model never reaches a protocol, neither its routes nor its records (model/<protocol>).
 */
const sessionsImportNoProtocol: IForbiddenRuleType[] =
  protocols.length === 0
    ? []
    : [
        {
          name: "sessions-import-no-protocol",
          comment:
            "model/sessions imports no protocol (its folder under protocols/ or model/): a protocol takes part in " +
            "sign-out by registering a participant (issue 74).",
          severity: "error",
          from: { path: "^apps/server/src/model/sessions/" },
          to: { path: `^apps/server/src/(model|protocols)/(${protocols.join("|")})/` },
        },
      ];

/**
 * A protocol parses its request and writes its answer; what two protocols share lives below them (the gate in
 * sign-in/gate, paths in model/sessions, page helpers in platform/http). Read from the folder layout ($1 is the
 * importing protocol's folder), so a protocol added tomorrow is covered without a line here (issue 74).
 */
const protocolsImportNoOtherProtocol: IForbiddenRuleType[] = [
  {
    name: "protocols-import-no-other-protocol",
    comment:
      "A protocol's folder imports no other protocol's folder: move what both need below them (sign-in/gate, " +
      "model, platform/http), so adding or removing a protocol touches its own folder (issue 74).",
    severity: "error",
    from: { path: "^apps/server/src/protocols/([^/]+)/" },
    to: { path: "^apps/server/src/protocols/[^/]+/", pathNot: "^apps/server/src/protocols/$1/" },
  },
];

/** What every protocol may use of sign-in: any other folder of sign-in/ is a method, refused to the protocols. */
const signInShared = ["gate", "session", "mfa"];

const importRules: IForbiddenRuleType[] = [
  {
    name: "no-circular",
    comment: "A file never imports a file that imports it back (issue 42): move the shared piece below both.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  ...upwardImports,
  ...sessionsImportNoProtocol,
  ...protocolsImportNoOtherProtocol,
  {
    name: "no-import-of-composition",
    comment: "Only app.ts, server.ts and cli-service.ts compose the layers; no layer imports them back (issue 42).",
    severity: "error",
    from: { path: `^apps/server/src/(${serverLayers.join("|")})/` },
    to: { path: "^apps/server/src/(app|server|cli-service)[.]ts$" },
  },
  {
    name: "model-leaves-below-sessions",
    comment: "People, applications and access rules sit below sessions and the developers' page in the model.",
    severity: "error",
    from: { path: "^apps/server/src/model/(users|apps|access|people)/" },
    to: { path: "^apps/server/src/model/(sessions|developers)/" },
  },
  {
    name: "model-people-is-a-leaf",
    comment: "People's records and units are the model's leaf: every area may read them, so they import no other area.",
    severity: "error",
    from: { path: "^apps/server/src/model/people/" },
    to: { path: "^apps/server/src/model/", pathNot: "^apps/server/src/model/people/" },
  },
  {
    name: "protocols-do-not-reach-sign-in-methods",
    comment:
      "A protocol does not reach into a sign-in method, a method added later included; it uses what every " +
      "sign-in shares: the gate, the session, and the second factor's step-up (issue 76: read from the folders).",
    severity: "error",
    from: { path: "^apps/server/src/protocols/" },
    to: { path: "^apps/server/src/sign-in/", pathNot: `^apps/server/src/sign-in/(${signInShared.join("|")})/` },
  },
];

async function importViolations(): Promise<number> {
  let violations = 0;
  for (const part of parts) {
    const paths = part.paths.filter((path) => existsSync(path));
    if (paths.length === 0 || !existsSync(part.tsConfig)) continue;
    const cruiseOptions: ICruiseOptions = {
      ruleSet: { forbidden: importRules },
      validate: true,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: part.tsConfig },
      doNotFollow: { path: "node_modules" },
      exclude: { path: "node_modules|/dist/|/\\.tmp/|/test-results/" },
      outputType: "err",
    };
    const result = await cruise(paths, cruiseOptions, undefined, { tsConfig: extractTSConfig(part.tsConfig) });
    if (typeof result.output !== "string") throw new Error("dependency-cruiser: expected text output");
    const count = result.exitCode;
    violations += count;
    console.log(
      `imports of the ${part.name}: ${count === 0 ? "no circle, no upward import" : `${count} violation(s)`}`,
    );
    if (count > 0) console.log(result.output);
  }
  return violations;
}

function sourceViolations(): number {
  const sources = readSources(root);
  // The allowlist names this repository's files: another tree (the checker's tests) neither uses nor stales it.
  const ownTree = options.root === undefined;
  let violations = 0;
  for (const rule of sourceRules) {
    const enforced = rule.enforced || options.enforce.includes(rule.name);
    const found = rule.check(sources, { ownTree });
    const allowed = ownTree ? allowlist.filter((entry) => entry.rule === rule.name) : [];
    const matches = (entry: (typeof allowed)[number], violation: (typeof found)[number]) =>
      entry.file === violation.file && (entry.table === undefined || entry.table === violation.table);
    const left = found.filter((violation) => !allowed.some((entry) => matches(entry, violation)));
    const stale = allowed.filter((entry) => !found.some((violation) => matches(entry, violation)));
    if (!enforced) {
      console.log(`${rule.name}: off (${left.length} file(s) would break it) — ${rule.summary}`);
      continue;
    }
    const count = left.length + stale.length;
    violations += count;
    const excused = allowed.filter((entry) => found.some((violation) => matches(entry, violation))).length;
    console.log(
      `${rule.name}: ${count === 0 ? "kept" : `${count} violation(s)`}${excused ? ` (${excused} allowlisted)` : ""}`,
    );
    for (const violation of left) console.log(`  ✗ ${violation.file}: ${violation.message}`);
    for (const entry of stale) {
      console.log(
        `  ✗ ${entry.file}: allowlisted for ${rule.name}${entry.table ? ` (${entry.table})` : ""} but keeps it now — remove the entry`,
      );
    }
  }
  return violations;
}

if (options["write-owner-table"]) {
  writeFileSync(ownerTableDoc, withOwnerTable(readFileSync(ownerTableDoc, "utf8")));
  console.log(`rewrote the table of owners in ${ownerTableDoc}`);
}
const violations = (await importViolations()) + sourceViolations();
process.exit(violations === 0 ? 0 : 1);
