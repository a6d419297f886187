// The server's layout as the docs draw it, checked against the tree (issue 76): apps/server/src holds the layers
// and the composition files only (a new top-level folder is refused until it is a layer with its place in the
// import rules), docs/architecture.md's layer table names every folder of each layer and no other, and the
// README's Layout names only folders that exist and every layer of the server.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SourceFile, Violation } from "./source-rules.ts";

/** The server's layers, lowest first (docs/architecture.md): each imports only its own layer and those below. */
export const serverLayers = ["platform", "model", "sign-in", "protocols", "surfaces"] as const;
// cli-service.ts builds the app for the operator CLI's sign-outs (issue 74), as server.ts does for the service.
const compositionFiles = ["app.ts", "server.ts", "cli-service.ts"];

const serverSource = "apps/server/src/";
const architectureDoc = "docs/architecture.md";
const readme = "README.md";

/** The folders directly below `apps/server/src/<below>` in the files' paths. */
function foldersBelow(files: readonly SourceFile[], below: string): Set<string> {
  const folders = new Set<string>();
  const prefix = `${serverSource}${below}`;
  for (const file of files) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length).split("/");
    if (rest.length > 1) folders.add(rest[0] ?? "");
  }
  return folders;
}

function differences(what: string, named: Set<string>, tree: Set<string>): string[] {
  const missing = [...tree].filter((folder) => !named.has(folder)).sort();
  const extra = [...named].filter((folder) => !tree.has(folder)).sort();
  return [
    ...(missing.length ? [`${what} does not name ${missing.map((folder) => `${folder}/`).join(", ")}`] : []),
    ...(extra.length ? [`${what} names ${extra.map((folder) => `${folder}/`).join(", ")}, not in the tree`] : []),
  ];
}

/** The top of apps/server/src: the layers' folders and the composition files, nothing else. */
function topLevel(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const folder of foldersBelow(files, "")) {
    if ((serverLayers as readonly string[]).includes(folder)) continue;
    violations.push({
      rule: "layout-matches-tree",
      file: `${serverSource}${folder}/`,
      message: `is not a layer (${serverLayers.join(", ")}): put it in the layer it belongs to, or make it a layer in scripts/dependencies/layout.ts with its place in the import rules`,
    });
  }
  for (const file of files) {
    const rest = file.path.startsWith(serverSource) ? file.path.slice(serverSource.length) : "/";
    if (rest.includes("/") || compositionFiles.includes(rest)) continue;
    violations.push({
      rule: "layout-matches-tree",
      file: file.path,
      message: `sits at the top of apps/server/src, where only ${compositionFiles.join(" and ")} compose the layers: move it into a layer`,
    });
  }
  return violations;
}

/** docs/architecture.md's "| Layer | Folders | …" table: each layer's row names exactly its folders. */
function layerTable(files: readonly SourceFile[]): Violation[] {
  const doc = files.find((file) => file.path === architectureDoc);
  if (doc === undefined) return [];
  const problems: string[] = [];
  for (const layer of serverLayers) {
    const row = doc.text.split("\n").find((line) => line.startsWith(`| ${layer} |`));
    if (row === undefined) {
      problems.push(`the layer table has no row for ${layer}`);
      continue;
    }
    const named = new Set([...(row.split("|")[2] ?? "").matchAll(/`([a-z-]+)\/`/g)].map((match) => match[1] ?? ""));
    problems.push(...differences(`the layer table's ${layer} row`, named, foldersBelow(files, `${layer}/`)));
  }
  return problems.map((problem) => ({ rule: "layout-matches-tree", file: architectureDoc, message: problem }));
}

/** The README's Layout block: every path it names exists, and it names every layer of the server (src/<layer>/). */
function readmeLayout(files: readonly SourceFile[], root: string): Violation[] {
  const doc = files.find((file) => file.path === readme);
  if (doc === undefined) return [];
  const block = doc.text.match(/## Layout\n+```\n([\s\S]*?)```/)?.[1];
  if (block === undefined) return [{ rule: "layout-matches-tree", file: readme, message: "has no Layout block" }];
  const problems: string[] = [];
  // The left column's paths, and any src/… path in a description (a bare folder there is prose: config/ of platform/).
  const paths = [...block.matchAll(/^\s*((?:[a-z0-9._-]+\/)+)|\s(src\/(?:[a-z0-9._-]+\/)+)/gm)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
  for (const path of paths) {
    const inTree = path.startsWith("src/") ? `apps/server/${path}` : path;
    if (!existsSync(join(root, inTree))) problems.push(`Layout names ${path}, which does not exist`);
  }
  const named = new Set(paths.filter((path) => /^src\/[^/]+\/$/.test(path)).map((path) => path.slice(4, -1)));
  problems.push(...differences("Layout", named, foldersBelow(files, "")));
  return problems.map((problem) => ({ rule: "layout-matches-tree", file: readme, message: problem }));
}

export function layoutMatchesTree(files: readonly SourceFile[], root: string): Violation[] {
  return [...topLevel(files), ...layerTable(files), ...readmeLayout(files, root)];
}
