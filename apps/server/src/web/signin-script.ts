import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.ts";

export const defaultSigninScriptPath = fileURLToPath(
  new URL("../../../../packages/signin-button/dist/kpi-id-signin.js", import.meta.url),
);

interface LoadedScript {
  body: Buffer;
  etag: string;
}

/**
 * GET /kpi-id-signin.js: the button script third-party pages include with a
 * plain <script src>. A classic script needs no CORS, but other origins may
 * only embed it when Cross-Origin-Resource-Policy says cross-origin. The name
 * is not content-hashed (sites hard-code it), so caches revalidate by ETag.
 */
export async function registerSigninScript(app: FastifyInstance, scriptPath = defaultSigninScriptPath): Promise<void> {
  let loaded: LoadedScript | undefined;
  async function load(): Promise<LoadedScript | undefined> {
    if (loaded) return loaded;
    const body = await readFile(scriptPath).catch(() => undefined);
    if (!body) return undefined; // not built yet; a later build is picked up without a restart
    loaded = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    return loaded;
  }

  app.get("/kpi-id-signin.js", { schema: { hide: true } }, async (request, reply) => {
    const script = await load();
    if (!script) throw new AppError("request.not_found");
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=3600, stale-while-revalidate=86400")
      .header("etag", script.etag)
      .header("cross-origin-resource-policy", "cross-origin");
    if (request.headers["if-none-match"] === script.etag) return reply.code(304).send();
    return reply.send(script.body);
  });
}
