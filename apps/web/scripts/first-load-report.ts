import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

interface ChunkInfo {
  code: string;
  imports: string[];
  isEntry: boolean;
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

/** Prints the login route's first-load JavaScript, gzipped, after every build. */
export function firstLoadReport(): Plugin {
  return {
    name: "kpi-id:first-load-report",
    apply: "build",
    generateBundle(_options, output) {
      const chunks = new Map<string, ChunkInfo>();
      for (const [file, item] of Object.entries(output)) {
        if (item.type === "chunk") chunks.set(file, { code: item.code, imports: item.imports, isEntry: item.isEntry });
      }
      const files = firstLoadFiles(chunks);
      const raw = files.reduce((sum, file) => sum + Buffer.byteLength(chunks.get(file)?.code ?? ""), 0);
      const gzipped = files.reduce((sum, file) => sum + gzipSync(chunks.get(file)?.code ?? "").length, 0);
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      console.log(
        `\nlogin route first-load JavaScript: ${kb(gzipped)} kB gzipped (${kb(raw)} kB raw, ${files.length} files)`,
      );
    },
  };
}
