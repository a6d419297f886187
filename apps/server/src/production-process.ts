import { fileURLToPath } from "node:url";

/** The script production starts (bin/kpi-id-server.js): server.ts behind Node's compile cache. */
export const productionEntry = fileURLToPath(new URL("../bin/kpi-id-server.js", import.meta.url));

/**
 * Node's flags for the service process. A 2 MiB young generation (V8's default grows it to 16 MiB per
 * semi-space) keeps a request's short-lived objects collected young and the heap small: on PostgreSQL, idle
 * RSS 203 → 165 MiB and peak under the memory bench's load 354 → 229 MiB (docs/performance.md).
 */
export const productionNodeFlags = ["--max-semi-space-size=2"] as const;

/** The command line the operator guide and the Dockerfile show. */
export const productionCommand = `node ${productionNodeFlags.join(" ")} apps/server/bin/kpi-id-server.js`;
