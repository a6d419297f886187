// The import structure check (`npm run check`): no file imports a file that imports it back, in any
// workspace. dependency-cruiser draws the graph the way TypeScript resolves it, so each part is cruised
// with its own tsconfig (the web app's `@/` paths resolve only with apps/web/tsconfig.json).
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseOptions, type IForbiddenRuleType } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
process.chdir(repoRoot);

/** Each part of the repository with the tsconfig that resolves its imports. */
const parts = [
  { name: "web app", paths: ["apps/web/src", "apps/web/test"], tsConfig: "apps/web/tsconfig.json" },
  {
    name: "server, packages, sandbox, samples, tests and tools",
    paths: ["apps/server", "packages", "sandbox", "examples", "e2e", "scripts", "bench", "cluster"],
    tsConfig: "tsconfig.base.json",
  },
];

/** The server's layers, lowest first (docs/architecture.md): each imports only its own layer and those below. */
export const serverLayers = ["platform", "model", "sign-in", "protocols", "surfaces"] as const;

const upwardImports: IForbiddenRuleType[] = serverLayers.slice(0, -1).map((layer, index) => ({
  name: `no-upward-import-from-${layer}`,
  comment: `apps/server/src/${layer} imports only its own layer and those below it (issue 42).`,
  severity: "error",
  from: { path: `^apps/server/src/${layer}/` },
  to: { path: `^apps/server/src/(${serverLayers.slice(index + 1).join("|")})/` },
}));

const rules: IForbiddenRuleType[] = [
  {
    name: "no-circular",
    comment: "A file never imports a file that imports it back (issue 42): move the shared piece below both.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  ...upwardImports,
  {
    name: "no-import-of-composition",
    comment: "Only app.ts and server.ts compose the layers; no layer imports them back (issue 42).",
    severity: "error",
    from: { path: `^apps/server/src/(${serverLayers.join("|")})/` },
    to: { path: "^apps/server/src/(app|server)[.]ts$" },
  },
];

let violations = 0;
for (const part of parts) {
  const options: ICruiseOptions = {
    ruleSet: { forbidden: rules },
    validate: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: part.tsConfig },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules|/dist/|/\\.tmp/|/test-results/" },
    outputType: "err",
  };
  const result = await cruise(part.paths, options, undefined, { tsConfig: extractTSConfig(part.tsConfig) });
  if (typeof result.output !== "string") throw new Error("dependency-cruiser: expected text output");
  const count = result.exitCode;
  violations += count;
  console.log(`imports of the ${part.name}: ${count === 0 ? "no cycle, no upward import" : `${count} violation(s)`}`);
  if (count > 0) console.log(result.output);
}
process.exit(violations === 0 ? 0 : 1);
