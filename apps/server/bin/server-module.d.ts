/** Why the bundle in `distDir` (apps/server/dist) cannot be used, or undefined when it can (server-module.js). */
export function staleBundleReason(distDir?: URL): string | undefined;
/** The server module: the bundle when it is current, else the TypeScript source. */
export function loadServerModule(): Promise<typeof import("../src/server.ts")>;
