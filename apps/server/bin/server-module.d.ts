/** Why the bundle in `distDir` (apps/server/dist) cannot be used, or undefined when it can (server-module.js). */
export function staleBundleReason(distDir?: URL): string | undefined;
/** The server module: the bundle when it is current, else the TypeScript source (and why, in `stale`). */
export function loadServerModule(
  /** What staleBundleReason() just said, when the caller checked; checked here when left out. */
  checked?: { stale: string | undefined },
): Promise<{ server: typeof import("../src/server.ts"); stale: string | undefined }>;
