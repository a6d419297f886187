// `npm run build` (the server's part): the service as one minified ES module bundle in apps/server/dist, which
// bin/kpi-id-server.js runs when it is at least as new as every file it was made from (bin/server-module.js).
//
// Why (issue 41, docs/performance.md "Sixteenth pass"): run from its TypeScript, the idle service held the
// source text of every module it loaded (V8 keeps it for lazy compilation) and Node's compile cache (the
// stripped and compiled form of each file, kept in the C heap for the life of the process); the bundle is
// minified, needs no type stripping and no compile cache: idle RSS 141 → about 110 MiB on PostgreSQL.
//
// What stays outside the bundle, loaded from node_modules as before: packages with native or WebAssembly parts,
// packages that read their own files at run time (through __dirname or their own paths), pino (its transports
// run in worker threads by file name), and what the service loads only on first use (SAML, the DSTU signatures,
// passkeys, SCIM, mail, Google): bundling them would gain nothing at idle and would put their own loading at risk.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { rolldown } from "rolldown";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
// --out-dir: elsewhere than dist (the test that starts a fresh bundle builds one of its own).
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const outDir = values["out-dir"]
  ? `${resolve(values["out-dir"])}/`
  : fileURLToPath(new URL("../dist/", import.meta.url));

/** Packages loaded from node_modules at run time, each for the reason given. */
const keptOutside: Record<string, string> = {
  "@node-rs/argon2": "a native addon per platform",
  "@electric-sql/pglite": "WebAssembly and data files beside its modules",
  "@authenio/samlify-xmllint-wasm": "WebAssembly; loaded with the first SAML request",
  "xmllint-wasm": "WebAssembly",
  "@fastify/swagger": "reads its own package.json",
  "@fastify/swagger-ui": "serves the files of its own static directory",
  "@fastify/static": "its file sending is used by @fastify/swagger-ui from node_modules",
  pino: "its transports run in worker threads by file name",
  "pino-pretty": "a pino transport",
  "thread-stream": "pino's worker thread",
  pg: "requires the optional pg-native inside a try",
  samlify: "first use",
  "xml-crypto": "first use",
  "@xmldom/xmldom": "first use",
  jkurwa: "first use; CommonJS that evaluates require through eval",
  gost89: "first use",
  "@peculiar/x509": "first use",
  "reflect-metadata": "first use, with @peculiar/x509",
  "@simplewebauthn/server": "first use",
  scimmy: "first use",
  nodemailer: "first use",
  "openid-client": "first use",
};

function isKeptOutside(id: string): boolean {
  if (id.startsWith("node:")) return true;
  // Node's built-in modules named without the prefix by CommonJS dependencies.
  if (/^[a-z_]+(\/[a-z_]+)?$/.test(id) && process.getBuiltinModule(id) !== undefined) return true;
  return Object.keys(keptOutside).some((name) => id === name || id.startsWith(`${name}/`));
}

const started = performance.now();
// Before any file is read: a file changed while the build runs is newer than the build.
const builtAtMs = Date.now();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const bundle = await rolldown({
  input: { server: fileURLToPath(new URL("../src/server.ts", import.meta.url)) },
  platform: "node",
  external: (id) => isKeptOutside(id),
  plugins: [
    {
      // A module that finds files beside itself (migrations, schemas, package.json, the web app's build) keeps
      // finding them in the source tree: its import.meta.url becomes its own file's, relative to the bundle.
      name: "keep-own-location",
      transform(code, id) {
        if (id.includes("/node_modules/") || !code.includes("import.meta.url")) return null;
        const own = JSON.stringify(relative(outDir, id));
        return code.replaceAll("import.meta.url", `new URL(${own}, import.meta.url).href`);
      },
    },
  ],
  onLog(level, log, defaultHandler) {
    // Directives and eval inside dependencies the bundle keeps are theirs, not ours; anything else is shown.
    if (log.code === "MODULE_LEVEL_DIRECTIVE" || log.code === "EVAL") return;
    defaultHandler(level, log);
  },
});
const { output } = await bundle.write({
  dir: outDir,
  format: "esm",
  // Names stay (stack traces and error names read as in the source); whitespace and dead code go.
  minify: { mangle: false, compress: true, codegen: { removeWhitespace: true } },
  keepNames: true,
  // No source maps: Node would hold them in memory to use them (--enable-source-maps), and with the names kept
  // a stack trace reads without one.
  sourcemap: false,
  entryFileNames: "[name].mjs",
  chunkFileNames: "[name]-[hash].mjs",
});
await bundle.close();

// What the bundle was made from, for bin/server-module.js's freshness check: every source file, and the lock
// file that pins the bundled packages.
const inputs = new Set<string>([
  relative(serverDir, fileURLToPath(new URL("../../../package-lock.json", import.meta.url))),
]);
for (const chunk of output) {
  if (chunk.type !== "chunk") continue;
  for (const id of chunk.moduleIds)
    if (id.startsWith("/") && !id.includes("/node_modules/")) inputs.add(relative(serverDir, id));
}
writeFileSync(`${outDir}build.json`, `${JSON.stringify({ builtAtMs, builtFrom: [...inputs].sort() }, null, 2)}\n`);
const bytes = output.reduce((sum, file) => sum + (file.type === "chunk" ? file.code.length : 0), 0);
console.log(
  `${relative(process.cwd(), outDir) || "."}: ${output.filter((file) => file.type === "chunk").length} modules, ${(bytes / 1024).toFixed(0)} KiB, from ${inputs.size} files, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
