import { fileURLToPath } from "node:url";

/** The script production starts (bin/kpi-id-server.js): server.ts behind Node's compile cache. */
export const productionEntry = fileURLToPath(new URL("../../bin/kpi-id-server.js", import.meta.url));

/**
 * Node's flags for the service process. A 2 MiB young generation (V8's default grows it to 16 MiB per
 * semi-space) keeps a request's short-lived objects collected young and the heap small: on PostgreSQL, idle
 * RSS 203 → 165 MiB and peak under the memory bench's load 354 → 229 MiB (docs/performance.md).
 */
export const productionNodeFlags = ["--max-semi-space-size=2"] as const;

/**
 * The C library's allocator settings for the service process (glibc reads them at start, so they are the
 * environment, not code). A fixed 64 KiB mmap threshold returns each socket read's 64 KiB buffer to the system
 * when it is freed, instead of glibc raising its threshold after the first large free and leaving those buffers
 * as holes in its heap. Measured (docs/performance.md): on PGlite idle RSS 404 → 353 MiB; on PostgreSQL, 10,000
 * imported rows' change notifications raised the server's RSS 78 MiB and now 34 MiB.
 */
export const productionEnvironment = { MALLOC_MMAP_THRESHOLD_: "65536" } as const;

const environmentPrefix = Object.entries(productionEnvironment)
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");

/** The command line the operator guide and the Dockerfile show. */
export const productionCommand = `${environmentPrefix} node ${productionNodeFlags.join(" ")} apps/server/bin/kpi-id-server.js`;

/** The server package's `start` script. */
export const productionStartScript = `${environmentPrefix} node ${productionNodeFlags.join(" ")} bin/kpi-id-server.js`;
