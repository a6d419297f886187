// The structure rules of `npm run check` (scripts/check-dependencies.ts says which), run on a tree: the repository's
// own, or a small one a test made (apps/server/test/support/dependency-trees.ts), in the caller's process.
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { cruise, type ICruiseOptions, type IForbiddenRuleType } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { allowlist } from "./allowlist.ts";
import { serverLayers } from "./layout.ts";
import { sourceRules } from "./rules.ts";
import { readSources } from "./sources.ts";

export interface DependencyCheck {
  /** The tree's root folder (absolute). */
  root: string;
  /** Rules that are off by default, turned on (a test of an "off" rule). */
  enforce?: string[];
  /** The repository's own tree: the allowlist names its files, so another tree neither uses nor stales it. */
  ownTree: boolean;
  /** Where each line of the report goes. */
  log?: (line: string) => void;
}

/** Each part of the repository with the tsconfig that resolves its imports. */
const parts = [
  { name: "web app", paths: ["apps/web/src", "apps/web/test"], tsConfig: "apps/web/tsconfig.json" },
  {
    name: "server, packages, sandbox, samples, tests and tools",
    paths: ["apps/server", "packages", "sandbox", "examples", "e2e", "scripts", "bench", "cluster"],
    tsConfig: "tsconfig.base.json",
  },
];

const upwardImports: IForbiddenRuleType[] = serverLayers.slice(0, -1).map((layer, index) => ({
  name: `no-upward-import-from-${layer}`,
  comment: `apps/server/src/${layer} imports only its own layer and those below it (issue 42).`,
  severity: "error",
  from: { path: `^apps/server/src/${layer}/` },
  to: { path: `^apps/server/src/(${serverLayers.slice(index + 1).join("|")})/` },
}));

/** The server's protocols, read from their folders (apps/server/src/protocols/*): a new one is covered at once. */
function protocolFolders(root: string): string[] {
  const folder = join(root, "apps/server/src/protocols");
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

/**
 * Sessions end through one path that calls the participants the protocols register (model/sessions/sign-out.ts,
 * issue 74): the sessions' model never reaches a protocol, neither its routes nor its records (model/<protocol>).
 */
const sessionsImportNoProtocol = (protocols: string[]): IForbiddenRuleType[] =>
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

const importRules = (root: string): IForbiddenRuleType[] => [
  {
    name: "no-circular",
    comment: "A file never imports a file that imports it back (issue 42): move the shared piece below both.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  ...upwardImports,
  ...sessionsImportNoProtocol(protocolFolders(root)),
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

async function importViolations(root: string, log: (line: string) => void): Promise<number> {
  let violations = 0;
  for (const part of parts) {
    const paths = part.paths.filter((path) => existsSync(join(root, path)));
    const tsConfig = join(root, part.tsConfig);
    if (paths.length === 0 || !existsSync(tsConfig)) continue;
    const cruiseOptions: ICruiseOptions = {
      // The cruise's paths, the rules' patterns and the answer's names are all relative to the checked tree's root.
      baseDir: root,
      ruleSet: { forbidden: importRules(root) },
      validate: true,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: tsConfig },
      doNotFollow: { path: "node_modules" },
      exclude: { path: "node_modules|/dist/|/\\.tmp/|/test-results/" },
      outputType: "err",
    };
    const result = await cruise(paths, cruiseOptions, undefined, { tsConfig: extractTSConfig(tsConfig) });
    if (typeof result.output !== "string") throw new Error("dependency-cruiser: expected text output");
    const count = result.exitCode;
    violations += count;
    log(`imports of the ${part.name}: ${count === 0 ? "no circle, no upward import" : `${count} violation(s)`}`);
    if (count > 0) log(result.output);
  }
  return violations;
}

function sourceViolations(root: string, enforce: string[], ownTree: boolean, log: (line: string) => void): number {
  const sources = readSources(root);
  let violations = 0;
  for (const rule of sourceRules) {
    const enforced = rule.enforced || enforce.includes(rule.name);
    const found = rule.check(sources, { root, ownTree });
    const allowed = ownTree ? allowlist.filter((entry) => entry.rule === rule.name) : [];
    const matches = (entry: (typeof allowed)[number], violation: (typeof found)[number]) =>
      entry.file === violation.file && (entry.table === undefined || entry.table === violation.table);
    const left = found.filter((violation) => !allowed.some((entry) => matches(entry, violation)));
    const stale = allowed.filter((entry) => !found.some((violation) => matches(entry, violation)));
    if (!enforced) {
      log(`${rule.name}: off (${left.length} file(s) would break it) — ${rule.summary}`);
      continue;
    }
    const count = left.length + stale.length;
    violations += count;
    const excused = allowed.filter((entry) => found.some((violation) => matches(entry, violation))).length;
    log(`${rule.name}: ${count === 0 ? "kept" : `${count} violation(s)`}${excused ? ` (${excused} allowlisted)` : ""}`);
    for (const violation of left) log(`  ✗ ${violation.file}: ${violation.message}`);
    for (const entry of stale) {
      log(
        `  ✗ ${entry.file}: allowlisted for ${rule.name}${entry.table ? ` (${entry.table})` : ""} but keeps it now — remove the entry`,
      );
    }
  }
  return violations;
}

/** Checks every rule on the tree, writing the report through `log`; the number of violations (0: the tree passes). */
export async function checkDependencies({ root, enforce = [], ownTree, log = console.log }: DependencyCheck) {
  // dependency-cruiser names the files it reaches by their real paths: a tree reached through a link (macOS's /tmp,
  // a TMPDIR that links to memory) is checked from where it really is, or no rule's path would match.
  const realRoot = realpathSync(root);
  return (await importViolations(realRoot, log)) + sourceViolations(realRoot, enforce, ownTree, log);
}
