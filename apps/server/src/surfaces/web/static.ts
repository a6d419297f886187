import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import { isPagePath, languages } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { sendError } from "../../platform/http/error-handler.ts";
import { indexPageRenderer } from "./index-page.ts";

const defaultDist = fileURLToPath(new URL("../../../../web/dist/", import.meta.url));

// Paths that belong to the service, never to the single-page app.
const serviceOwnedPrefixes = ["/api/", "/oidc/", "/locales/", "/assets/", "/google/", "/metrics"];

function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = request.url.split("?")[0] ?? "/";
  if (serviceOwnedPrefixes.some((prefix) => path.startsWith(prefix))) return false;
  // Unmatched paths with a file extension are missing files, not routes.
  return !/\.[a-z0-9]+$/i.test(path);
}

export function resolveWebDist(configured?: string): string | undefined {
  const dir = configured ? resolve(configured) : defaultDist;
  return existsSync(join(dir, "index.html")) ? dir : undefined;
}

/**
 * Serves the built web app: hashed assets cached for a year, the locale files,
 * and index.html for every route of the app (the router decides what shows):
 * with 200 for the app's pages and 404 for any other path.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  if (distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: "/",
      // "/" is the app's own page (rendered below, with its settings and translations); directories are not listed.
      index: false,
      // Files are looked up per request, so a rebuild (or the manual PDF written
      // after the web build) is served without restarting; misses fall through
      // to the not-found handler below.
      wildcard: true,
      // The build writes .br and .gz beside every text file: the one-machine
      // default has no proxy in front to compress, and a phone on a slow link
      // needs the 70 % saved (Vary: Accept-Encoding is added by the plugin).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const immutable = path.includes(`${join(distDir, "assets")}`);
        reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  const sendIndexPage = distDir ? indexPageRenderer(app, distDir) : undefined;
  // The static plugin answers a directory itself (404 without an index file); "/" is the app's page.
  if (sendIndexPage) app.get("/", { schema: { hide: true } }, (request, reply) => sendIndexPage(request, reply, 200));
  const answerUnmatched = async (request: FastifyRequest, reply: FastifyReply) => {
    if (sendIndexPage && wantsPage(request)) {
      const known = isPagePath(request.url.split("?")[0] ?? "/");
      return sendIndexPage(request, reply, known ? 200 : 404);
    }
    return sendError(request, reply, new AppError("request.not_found"));
  };
  // The build has no file under a language's path, so its pages skip the static plugin's look-up: for every page a
  // browser opened, it read the build's directory and tried each compressed name on disk before falling through.
  if (sendIndexPage) {
    for (const language of languages) {
      for (const url of [`/${language}`, `/${language}/*`])
        app.route({ method: ["GET", "HEAD"], url, schema: { hide: true }, handler: answerUnmatched });
    }
  }
  app.setNotFoundHandler(answerUnmatched);
}
