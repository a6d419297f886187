import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

// Text formats worth compressing; images and fonts in woff2 are compressed already.
const compressible = new Set([".html", ".js", ".css", ".json", ".svg", ".txt", ".map"]);
// Below this a compressed copy saves less than its headers cost.
const minimumBytes = 512;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes `file.br` and `file.gz` beside every text file of `dir`; returns the bytes before and after brotli. */
export function precompressDirectory(dir: string): { files: number; rawBytes: number; brotliBytes: number } {
  let files = 0;
  let rawBytes = 0;
  let brotliBytes = 0;
  for (const path of filesUnder(dir)) {
    if (!compressible.has(extname(path)) || statSync(path).size < minimumBytes) continue;
    const content = readFileSync(path);
    const brotli = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    writeFileSync(`${path}.br`, brotli);
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
    files += 1;
    rawBytes += content.length;
    brotliBytes += brotli.length;
  }
  return { files, rawBytes, brotliBytes };
}

/** After the build, compresses the output once so the server only picks a file (no compression per request). */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "kpi-id:precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/") ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle(error) {
      // A failed build (an incomplete translation, a budget overrun) writes no files: compressing nothing
      // would throw ENOENT and hide the build's own error message. Vite 8 calls closeBundle without the error
      // when a buildStart hook failed (the translations check), so the missing folder is the sign too.
      if (error || !existsSync(outDir)) return;
      const { files, rawBytes, brotliBytes } = precompressDirectory(outDir);
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      console.log(`precompressed ${files} files: ${kb(rawBytes)} kB → ${kb(brotliBytes)} kB brotli (and gzip)`);
    },
  };
}
