import { resolve } from "node:path";
import { type RoutePreloads, routePreloadsFile } from "@kpi-id/contracts";
import type { Plugin } from "vite";
import { lazyPages } from "../src/app/page-table.ts";

interface BuiltChunk {
  imports: string[];
  isEntry: boolean;
}

/** A chunk and every chunk it imports statically (what has to arrive before its code can run). */
function withStaticImports(file: string, chunks: Map<string, BuiltChunk>): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
  };
  visit(file);
  return [...seen];
}

/**
 * Writes `route-preloads.json`: per page, the chunk files its lazy module needs beyond the first load.
 * The server names them in the page it writes, so on a phone the page's own code downloads beside
 * the main script, not one round trip after it (docs/performance.md). The pages are page-table.ts's, the
 * table the router is built from; a page module missing from the bundle fails the build.
 */
export function routePreloads(): Plugin {
  let root = process.cwd();
  return {
    name: "kpi-id:route-preloads",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, output) {
      const chunks = new Map<string, BuiltChunk>();
      const byModule = new Map<string, string>();
      for (const [file, item] of Object.entries(output)) {
        if (item.type !== "chunk") continue;
        chunks.set(file, { imports: item.imports, isEntry: item.isEntry });
        if (item.facadeModuleId) byModule.set(item.facadeModuleId, file);
      }
      const entry = [...chunks.entries()].find(([, chunk]) => chunk.isEntry)?.[0];
      const firstLoad = new Set(entry ? withStaticImports(entry, chunks) : []);
      const preloads: RoutePreloads = {};
      for (const { path, file: module, signedIn } of lazyPages) {
        const file = byModule.get(resolve(root, "src/app/pages", module));
        if (!file)
          this.error(`page-table.ts names src/app/pages/${module} for "${path}", but no chunk is built from it`);
        const scripts = withStaticImports(file, chunks).filter((name) => !firstLoad.has(name));
        preloads[path] = { scripts, signedIn };
      }
      this.emitFile({ type: "asset", fileName: routePreloadsFile, source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
  };
}
