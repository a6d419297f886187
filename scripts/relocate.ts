// Moves files with `git mv` and keeps every relative import pointing at them: the moved files' own relative
// specifiers are recomputed from their new folder, and every file that imports a moved file gets the new path.
// Used by scripts/place-server-tests.ts (issue 58's test tree) and for moving SQL into its owning model module.
//   node scripts/relocate.ts <from> <to> [<from> <to> …]   (paths from the repository root)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The forms a relative path to another file takes in the sources: imports, re-exports, dynamic imports, URLs. */
const specifierForms = [
  /(\bfrom\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
  /(\bimport\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
  /(\bimport\s+)(["'])(\.{1,2}\/[^"']+)\2/g,
  /(\bvi\.(?:mock|importActual|doMock)\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
  /(\bnew URL\s*\(\s*)(["'])(\.{1,2}\/[^"']*)\2(?=\s*,\s*import\.meta\.url)/g,
  // A template's fixed start: new URL(`./vectors/${name}`, import.meta.url).
  /(\bnew URL\s*\(\s*)(`)(\.{1,2}\/[^`$]*)(?=[^`]*`\s*,\s*import\.meta\.url)/g,
  /(\b(?:join|resolve)\s*\(\s*import\.meta\.dirname\s*,\s*)(["'])(\.{1,2}(?:\/[^"']*)?)\2/g,
];

/** A specifier from `fromFile` (repository-relative, posix) to `target`, in the `./` or `../` form imports use. */
export function specifierBetween(fromFile: string, target: string, keepTrailingSlash = false): string {
  let path = posix.relative(posix.dirname(fromFile), target);
  if (!path.startsWith(".")) path = `./${path}`;
  if (path === ".") path = "./";
  return keepTrailingSlash && !path.endsWith("/") ? `${path}/` : path;
}

/**
 * The new text of `file` (now at `newPath`) once the files in `moves` (old → new, repository-relative) have moved.
 * Returns the text unchanged when nothing it points at moved and it did not move itself.
 */
export function rewriteSpecifiers(text: string, oldPath: string, newPath: string, moves: ReadonlyMap<string, string>) {
  let changed = text;
  for (const form of specifierForms) {
    changed = changed.replace(form, (whole, lead: string, quote: string, specifier: string) => {
      const trailingSlash = specifier.endsWith("/");
      const target = posix.normalize(posix.join(posix.dirname(oldPath), specifier));
      const movedTarget = moves.get(target) ?? movedFolderOf(target, moves) ?? target;
      if (movedTarget === target && newPath === oldPath) return whole;
      // A template's match ends before its first `${…}`: its closing quote is still in the text.
      const closing = quote === "`" ? "" : quote;
      return `${lead}${quote}${specifierBetween(newPath, movedTarget, trailingSlash)}${closing}`;
    });
  }
  return changed;
}

/** Where a path inside a moved folder ends up (a folder move is written `old/` → `new/`). */
function movedFolderOf(target: string, moves: ReadonlyMap<string, string>): string | undefined {
  for (const [from, to] of moves) {
    if (from.endsWith("/") && target.startsWith(from)) return to + target.slice(from.length);
  }
  return undefined;
}

/** The TypeScript and JavaScript files git tracks, repository-relative. */
export function trackedSources(repoRoot: string): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.tsx", "*.mts", "*.js", "*.mjs"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return listed.split("\0").filter((path) => path !== "" && !path.includes("node_modules/"));
}

/** Performs the moves: `git mv` each file, then rewrites the relative specifiers everywhere they changed. */
export function relocate(repoRoot: string, moves: ReadonlyMap<string, string>): string[] {
  const sources = trackedSources(repoRoot);
  const rewritten: { path: string; text: string }[] = [];
  for (const path of sources) {
    const newPath = moves.get(path) ?? path;
    const text = readFileSync(resolve(repoRoot, path), "utf8");
    const changed = rewriteSpecifiers(text, path, newPath, moves);
    if (changed !== text) rewritten.push({ path: newPath, text: changed });
  }
  for (const [from, to] of moves) {
    mkdirSync(dirname(resolve(repoRoot, to)), { recursive: true });
    execFileSync("git", ["mv", from, to], { cwd: repoRoot });
  }
  for (const file of rewritten) writeFileSync(resolve(repoRoot, file.path), file.text);
  return rewritten.map((file) => file.path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repoRoot = fileURLToPath(new URL("..", import.meta.url));
  const pairs = process.argv.slice(2);
  if (pairs.length === 0 || pairs.length % 2 !== 0) {
    console.error("usage: node scripts/relocate.ts <from> <to> [<from> <to> …]");
    process.exit(2);
  }
  const moves = new Map<string, string>();
  for (let index = 0; index < pairs.length; index += 2) {
    const from = posix.normalize(relative(repoRoot, resolve(pairs[index] ?? "")));
    const to = posix.normalize(relative(repoRoot, resolve(pairs[index + 1] ?? "")));
    if (!existsSync(resolve(repoRoot, from))) throw new Error(`${from} does not exist`);
    moves.set(from, to);
  }
  for (const path of relocate(repoRoot, moves)) console.log(`rewrote imports in ${path}`);
}
