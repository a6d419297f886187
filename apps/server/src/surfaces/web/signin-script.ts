import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { signinScriptSchema } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors.ts";

export const defaultSigninScriptPath = fileURLToPath(
  new URL("../../../../../packages/signin-button/dist/kpi-id-signin.js", import.meta.url),
);

interface LoadedScript {
  body: Buffer;
  brotli: Buffer;
  gzip: Buffer;
  etag: string;
  /** The content-hashed name: /kpi-id-signin.{hash}.js, cached for a year. */
  hashedPath: string;
  /** Subresource Integrity of the body (sha384), for <script integrity>. */
  integrity: string;
}

function loadScript(body: Buffer): LoadedScript {
  const hash = createHash("sha256").update(body).digest("base64url");
  return {
    body,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${hash.slice(0, 27)}"`,
    hashedPath: `/kpi-id-signin.${hash.slice(0, 12).replace(/[-_]/g, "0")}.js`,
    integrity: `sha384-${createHash("sha384").update(body).digest("base64")}`,
  };
}

/** The smallest encoding the client accepts (brotli, gzip or none); caches keep one per Accept-Encoding. */
function sendEncoded(request: FastifyRequest, reply: FastifyReply, script: LoadedScript) {
  reply.header("vary", "accept-encoding");
  const accepted = String(request.headers["accept-encoding"] ?? "");
  if (/\bbr\b/.test(accepted)) return reply.header("content-encoding", "br").send(script.brotli);
  if (/\bgzip\b/.test(accepted)) return reply.header("content-encoding", "gzip").send(script.gzip);
  return reply.send(script.body);
}

/**
 * The button script third-party pages include with a plain <script src>. Two names: /kpi-id-signin.js,
 * which sites hard-code (cached an hour, revalidated by ETag), and /kpi-id-signin.{hash}.js, whose
 * name changes with its content (cached a year, immutable), which the wizard offers with its
 * `integrity`. A classic script needs no CORS, but `integrity` makes the browser fetch it in CORS mode,
 * and other origins may embed it only when Cross-Origin-Resource-Policy says cross-origin. Both are
 * sent brotli or gzip compressed when the client accepts it.
 */
export async function registerSigninScript(app: FastifyInstance, scriptPath = defaultSigninScriptPath): Promise<void> {
  let loaded: LoadedScript | undefined;
  async function load(): Promise<LoadedScript> {
    if (loaded) return loaded;
    const body = await readFile(scriptPath).catch(() => undefined);
    // Not built yet; a later build is picked up without a restart.
    if (!body) throw new AppError("request.not_found");
    loaded = loadScript(body);
    return loaded;
  }

  function scriptHeaders(reply: FastifyReply, cacheControl: string) {
    return reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("cache-control", cacheControl)
      .header("cross-origin-resource-policy", "cross-origin");
  }

  app.get("/kpi-id-signin.js", { schema: { hide: true } }, async (request, reply) => {
    const script = await load();
    scriptHeaders(reply, "public, max-age=3600, stale-while-revalidate=86400").header("etag", script.etag);
    if (request.headers["if-none-match"] === script.etag) return reply.code(304).send();
    return sendEncoded(request, reply, script);
  });

  app.get("/kpi-id-signin.:hash(^[A-Za-z0-9]{12}).js", { schema: { hide: true } }, async (request, reply) => {
    const script = await load();
    // Only the current hash: an old one is gone (its pages keep working through the plain name).
    if (request.url.split("?")[0] !== script.hashedPath) throw new AppError("request.not_found");
    // `integrity` makes the browser fetch in CORS mode: any page may read this public script.
    scriptHeaders(reply, "public, max-age=31536000, immutable").header("access-control-allow-origin", "*");
    return sendEncoded(request, reply, script);
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/signin-script",
    {
      schema: {
        tags: ["applications"],
        summary: "The button script's content-hashed address and integrity",
        description:
          "`path`: /kpi-id-signin.{hash}.js, cached for a year; `integrity`: its sha384 Subresource Integrity. " +
          "The button wizard puts both into its snippet. 404 `request.not_found` before the script is built.",
        response: { 200: signinScriptSchema },
      },
    },
    async () => {
      const script = await load();
      return { path: script.hashedPath, integrity: script.integrity };
    },
  );
}
