import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

interface ChunkInfo {
  code: string;
  imports: string[];
  isEntry: boolean;
  /** Module id → its size in the chunk before minification. */
  modules: Map<string, number>;
}

/** A node_modules package, or the workspace file, a module belongs to. */
function ownerOf(id: string): string {
  const pkg = id.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg?.[1]) return pkg[1];
  return id.replace(/^.*\/(apps|packages)\//, "$1/");
}

/** BUNDLE_REPORT=1: what the first load is made of, largest first (sizes before minification). */
function printComposition(files: string[], chunks: Map<string, ChunkInfo>): void {
  const byOwner = new Map<string, number>();
  for (const file of files) {
    for (const [id, size] of chunks.get(file)?.modules ?? []) {
      const owner = ownerOf(id);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + size);
    }
  }
  const rows = [...byOwner.entries()].sort((a, b) => b[1] - a[1]).filter(([, size]) => size >= 1024);
  for (const [owner, size] of rows) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} kB  ${owner}`);
}

/** The entry chunk and everything it imports statically: what the login route needs before it can show. */
function firstLoadFiles(bundle: Map<string, ChunkInfo>): string[] {
  const entry = [...bundle.entries()].find(([, chunk]) => chunk.isEntry)?.[0];
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of bundle.get(file)?.imports ?? []) visit(imported);
  };
  if (entry) visit(entry);
  return [...seen];
}

/**
 * The login route's first-load JavaScript budget, gzipped (design.md §6): a build over it fails, so a
 * later change cannot make the first screen slower on a phone without anyone deciding so.
 */
export const firstLoadBudgetBytes = 110 * 1024;

/** Prints the login route's first-load JavaScript, gzipped, after every build; fails the build over budget. */
export function firstLoadReport(budgetBytes = firstLoadBudgetBytes): Plugin {
  return {
    name: "kpi-id:first-load-report",
    apply: "build",
    generateBundle(_options, output) {
      const chunks = new Map<string, ChunkInfo>();
      for (const [file, item] of Object.entries(output)) {
        if (item.type !== "chunk") continue;
        const modules = new Map(Object.entries(item.modules).map(([id, info]) => [id, info.renderedLength]));
        chunks.set(file, { code: item.code, imports: item.imports, isEntry: item.isEntry, modules });
      }
      const files = firstLoadFiles(chunks);
      const raw = files.reduce((sum, file) => sum + Buffer.byteLength(chunks.get(file)?.code ?? ""), 0);
      const gzipped = files.reduce((sum, file) => sum + gzipSync(chunks.get(file)?.code ?? "").length, 0);
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      console.log(
        `\nlogin route first-load JavaScript: ${kb(gzipped)} kB gzipped (${kb(raw)} kB raw, ${files.length} files)`,
      );
      if (process.env.BUNDLE_REPORT || gzipped > budgetBytes) printComposition(files, chunks);
      if (gzipped > budgetBytes) {
        this.error(
          `the login route's first-load JavaScript is ${kb(gzipped)} kB gzipped, over its ${kb(budgetBytes)} kB budget ` +
            "(docs/performance.md): load the new code lazily (a route's lazy(), a dynamic import()) or make room",
        );
      }
    },
  };
}
