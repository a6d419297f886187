import { fileURLToPath } from "node:url";

/** The script production starts (bin/kpi-id-server.js): the server's bundle, or its source when that is not current. */
export const productionEntry = fileURLToPath(new URL("../../bin/kpi-id-server.js", import.meta.url));

/**
 * Node's flags for the service process. A 2 MiB young generation (V8's default grows it to 16 MiB per
 * semi-space) keeps a request's short-lived objects collected young and the heap small: on PostgreSQL, idle
 * RSS 203 → 165 MiB and peak under the memory bench's load 354 → 229 MiB (docs/performance.md). `--expose-gc`
 * lets the service collect once when a quiet spell follows a busy one (http/quiet-collection.ts): a minute
 * after a minute of load, 197 → 112 MiB.
 */
export const productionNodeFlags = ["--max-semi-space-size=2", "--expose-gc"] as const;

/**
 * The C library's allocator settings for the service process (glibc reads them at start, so they are the
 * environment, not code). A fixed mmap threshold returns each larger block to the system when it is freed,
 * instead of glibc raising its threshold after the first large free and leaving those blocks as holes in its
 * heap: each socket read's 64 KiB buffer, and the compiler's working memory while the bundle (one 2.5 MiB
 * module) is compiled at start-up. Measured (docs/performance.md): with 64 KiB, on PGlite idle RSS 404 → 353
 * MiB, and on PostgreSQL 10,000 imported rows' change notifications raised the server's RSS 78 → 34 MiB; 32 KiB
 * keeps the compiler's blocks out too: the bundle's idle RSS on PostgreSQL 132 → 112 MiB (C heap 21 → 4 MiB).
 */
export const productionEnvironment = { MALLOC_MMAP_THRESHOLD_: "32768" } as const;

const environmentPrefix = Object.entries(productionEnvironment)
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");

/** The command line the operator guide and the Dockerfile show. */
export const productionCommand = `${environmentPrefix} node ${productionNodeFlags.join(" ")} apps/server/bin/kpi-id-server.js`;

/** The server package's `start` script. */
export const productionStartScript = `${environmentPrefix} node ${productionNodeFlags.join(" ")} bin/kpi-id-server.js`;
