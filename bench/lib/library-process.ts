// oidc-provider alone in a process of its own (library-server.mjs), for the side-by-side memory rows (peer.bench.ts,
// memory.bench.ts); and the service's libraries without the service (stack-server.mjs).
import { fileURLToPath } from "node:url";
import { productionEnvironment, productionNodeFlags } from "@kpi-id/server/production-process";
import { freePort } from "@kpi-id/server/testing";
import { startChildServer } from "./child-server.ts";

export const libraryRequests = 20;

export function goalRoom(mib: number): string {
  return mib >= 0
    ? `the 5× goal leaves ${mib.toFixed(1)} MiB for all the service adds`
    : `the library alone is already ${(-mib).toFixed(1)} MiB over the 5× goal`;
}

/**
 * oidc-provider alone (bench/lib/library-server.mjs) in a process started as the service's is (its Node flags and
 * allocator setting): its idle RSS after a few requests and a full collection is about the least a service built on
 * it as it ships can hold.
 */
export function libraryAloneIdleMiB(settleSeconds: number): Promise<number> {
  return idleMiBOf("./library-server.mjs", {}, settleSeconds);
}

/**
 * The libraries the service is built on, loaded and used as it uses them and with the store it holds (stack-server.mjs:
 * Fastify and its logger, cookies, helmet's headers, prom-client, zod, oidc-provider mounted under /oidc, and a pg pool
 * under Kysely or PGlite), in a process started as the service's is: the floor the stack sets under the idle goal.
 */
export function stackIdleMiB(store: { DATABASE_URL?: string; DATA_DIR?: string }, settleSeconds: number) {
  return idleMiBOf("./stack-server.mjs", { LOG_LEVEL: "warn", ...store }, settleSeconds);
}

/** A server script of the bench's, its idle RSS after as many discovery and JWKS requests and a settling wait. */
async function idleMiBOf(scriptPath: string, extraEnv: Record<string, string | undefined>, settleSeconds: number) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const script = fileURLToPath(new URL(scriptPath, import.meta.url));
  const given = Object.entries(extraEnv).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const env = { NODE_ENV: "production", PORT: String(port), ...productionEnvironment, ...Object.fromEntries(given) };
  const discovery = `${origin}/oidc/.well-known/openid-configuration`;
  const server = await startChildServer(script, [], env, discovery, productionNodeFlags);
  try {
    for (let i = 0; i < libraryRequests / 2; i++) {
      await (await fetch(discovery)).text();
      await (await fetch(`${origin}/oidc/jwks`)).text();
    }
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    return server.memory().rssMiB;
  } finally {
    await server.stop();
  }
}
