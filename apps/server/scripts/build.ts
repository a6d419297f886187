// `npm run build` (the server's part): the service as a minified ES module bundle in apps/server/dist (server.mjs
// and a chunk for each part loaded on first use), which bin/kpi-id-server.js runs while every file it was made
// from holds what it held at the build (bin/server-module.js, dist/build.json).
//
// Why (issue 41, docs/performance-history.md "Sixteenth pass"): run from its TypeScript, the idle service held the
// source text of every module it loaded (V8 keeps it for lazy compilation) and Node's compile cache (the
// stripped and compiled form of each file, kept in the C heap for the life of the process); the bundle is
// minified, needs no type stripping and no compile cache: idle RSS 141–165 → 115–121 MiB on PostgreSQL.
//
// What stays outside the bundle, loaded from node_modules as before: packages with native or WebAssembly parts,
// packages that read their own files at run time (through __dirname or their own paths), pino (its transports
// run in worker threads by file name), and what the service loads only on first use (SAML, the DSTU signatures,
// passkeys, SCIM, mail, Google): bundling them would gain nothing at idle and would put their own loading at risk.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { rolldown } from "rolldown";
import { asciiComments } from "./ascii-chunks.ts";

// --out-dir: elsewhere than dist (the test that starts a fresh bundle builds one of its own).
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const outDir = values["out-dir"]
  ? `${resolve(values["out-dir"])}/`
  : fileURLToPath(new URL("../dist/", import.meta.url));

/** Packages loaded from node_modules at run time, each for the reason given. */
const keptOutside: Record<string, string> = {
  "@node-rs/argon2": "a native addon per platform",
  "@electric-sql/pglite": "WebAssembly and data files beside its modules",
  "libxml2-wasm": "WebAssembly beside its modules; loaded with the first SAML request",
  "@fastify/swagger": "reads its own package.json",
  "@fastify/swagger-ui": "serves the files of its own static directory",
  "@fastify/static": "its file sending is used by @fastify/swagger-ui from node_modules",
  pino: "its transports run in worker threads by file name",
  "pino-pretty": "a pino transport",
  "thread-stream": "pino's worker thread",
  pg: "requires the optional pg-native inside a try",
  // Installed only as a dev dependency of other packages: bundled, the build would depend on the dev tree, and the
  // production image (npm ci --omit=dev) would find the bundle made from a package it does not have.
  "supports-color": "debug requires it inside a try, and only the dev dependencies install it",
  samlify: "first use",
  "xml-crypto": "first use",
  "@xmldom/xmldom": "first use",
  jkurwa: "first use; CommonJS that evaluates require through eval",
  "asn1.js": "jkurwa's schemas, which the Diia CRL reader extends, are built with the copy in node_modules",
  "bn.js": "asn1.js's numbers",
  gost89: "first use",
  "@peculiar/x509": "first use",
  "reflect-metadata": "first use, with @peculiar/x509",
  "@simplewebauthn/server": "first use",
  scimmy: "first use",
  nodemailer: "first use",
  "openid-client": "first use",
  "@opentelemetry/api": "loaded only with tracing on (platform/tracing/start.ts), one copy shared with the SDK",
  // The trace SDK's packages (platform/tracing/start.ts, from-env.ts): one copy of each shared with the
  // instrumentation, which node_modules holds anyway.
  "@opentelemetry/sdk-trace": "loaded only with tracing on",
  "@opentelemetry/exporter-trace-otlp-proto": "loaded only with tracing on",
  "@opentelemetry/exporter-trace-otlp-http": "loaded only with tracing on",
  "@opentelemetry/resources": "loaded only with tracing on",
  "@opentelemetry/core": "loaded only with tracing on",
  "@opentelemetry/context-async-hooks": "loaded only with tracing on",
  "@opentelemetry/instrumentation": "loaded only with tracing on; it hooks require",
  "@opentelemetry/instrumentation-http": "loaded only with tracing on; it patches node:http when required",
};

function isKeptOutside(id: string): boolean {
  if (id.startsWith("node:")) return true;
  // Node's built-in modules named without the prefix by CommonJS dependencies.
  if (/^[a-z_]+(\/[a-z_]+)?$/.test(id) && process.getBuiltinModule(id) !== undefined) return true;
  return Object.keys(keptOutside).some((name) => id === name || id.startsWith(`${name}/`));
}

/** The directory of the package a module inside node_modules belongs to. */
function packageDirectory(id: string): string | undefined {
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id);
  return match?.[1];
}

/**
 * Data tables that are JSON in their packages (mime-db's types, three copies of it in two versions, loaded by the
 * mime-types of koa and Fastify at start-up; unhomoglyph's confusables) are read from node_modules and parsed as
 * JSON when the bundle runs. Bundled as they come, each became an object literal in the bundle's text, and V8 kept
 * that text and its compiled form (the module's top-level code is never flushed) for the life of the process.
 */
const jsonTables = /\/node_modules\/(?:mime-db\/db|unhomoglyph\/data)\.json$/;
// Two packages that install the same version each hold their own copy (koa's and type-is's mime-db): the first
// copy read stands for every file with the same contents, so the service parses and holds it once.
const firstCopyOf = new Map<string, string>();
const jsonTablesRead = {
  name: "json-tables-read-at-run-time",
  load(id: string) {
    if (!jsonTables.test(id)) return null;
    const digest = createHash("sha256").update(readFileSync(id)).digest("hex");
    const first = firstCopyOf.get(digest) ?? id;
    firstCopyOf.set(digest, first);
    // Exported as "module.exports" too: what a CommonJS require of the file gets is the table itself, as from Node.
    const code =
      first === id
        ? `import { readFileSync } from "node:fs";\nconst table = JSON.parse(readFileSync(new URL(${JSON.stringify(relative(outDir, id))}, import.meta.url), "utf8"));\nexport { table as default, table as "module.exports" };\n`
        : `export { default, "module.exports" } from ${JSON.stringify(first)};\n`;
    return { code, moduleType: "js" as const };
  },
};

const started = performance.now();
mkdirSync(outDir, { recursive: true });

// Every module the build read, kept by the graph or not: a module imported only for its side effects leaves no
// code in any chunk, yet a change to it must make the bundle stale.
const modulesRead = new Set<string>();
const bundle = await rolldown({
  input: { server: fileURLToPath(new URL("../src/server.ts", import.meta.url)) },
  platform: "node",
  external: (id) => isKeptOutside(id),
  plugins: [
    jsonTablesRead,
    {
      // A module that finds files beside itself (migrations, schemas, package.json, the web app's build) keeps
      // finding them in the source tree: its import.meta.url becomes its own file's, relative to the bundle.
      // Only files of ours: rolldown's own runtime (an id starting with \0) and dependencies keep theirs.
      name: "keep-own-location",
      transform(code, id) {
        if (!id.startsWith("/")) return null;
        modulesRead.add(id);
        if (id.includes("/node_modules/")) return null;
        if (/import\.meta\.(dirname|filename)/.test(code))
          throw new Error(`${id}: use new URL(…, import.meta.url), which the bundle keeps pointing at the source`);
        if (!code.includes("import.meta.url")) return null;
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
  // Strings, regular expressions and names past ASCII as escapes; the licence comments by asciiComments.
  charset: "ascii",
  keepNames: true,
  // No source maps: Node would hold them in memory to use them (--enable-source-maps), and with the names kept
  // a stack trace reads without one.
  sourcemap: false,
  entryFileNames: "[name].mjs",
  chunkFileNames: "[name]-[hash].mjs",
  plugins: [asciiComments],
});
await bundle.close();

// What the bundle was made from, for bin/server-module.js's freshness check, with each file's SHA-256: every
// file of ours it read, and the package.json of every package it holds (a package upgraded changes its version).
const inputs = new Set<string>();
for (const id of modulesRead) {
  const packageDir = packageDirectory(id);
  inputs.add(packageDir ? `${packageDir}/package.json` : id);
}
const builtFrom: Record<string, string> = {};
for (const input of [...inputs].sort())
  builtFrom[relative(outDir, input)] = createHash("sha256").update(readFileSync(input)).digest("hex");
writeFileSync(`${outDir}build.json`, `${JSON.stringify({ builtFrom }, null, 2)}\n`);

// The chunks of earlier builds go once they are a week old: an instance started from an earlier build in the
// same place may still import its chunks loaded on first use (their names carry their content's hash).
const written = new Set(output.map((file) => file.fileName));
const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
for (const name of readdirSync(outDir)) {
  if (!name.endsWith(".mjs") || written.has(name)) continue;
  if (statSync(`${outDir}${name}`).mtimeMs < weekAgo) rmSync(`${outDir}${name}`);
}

const bytes = output.reduce((sum, file) => sum + (file.type === "chunk" ? file.code.length : 0), 0);
console.log(
  `${relative(process.cwd(), outDir) || "."}: ${output.filter((file) => file.type === "chunk").length} modules, ${(bytes / 1024).toFixed(0)} KiB, from ${inputs.size} files, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
