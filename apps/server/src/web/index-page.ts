import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import {
  type BootData,
  bootDataElementId,
  chooseLanguage,
  defaultLanguage,
  isLanguage,
  type Language,
  type RoutePreloads,
  routePreloadsFile,
  type StartTranslations,
  startNamespaces,
} from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { readSessionCookie } from "../sessions/cookie.ts";
import { publicSettings } from "./public-settings.ts";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface RenderedPage {
  builtAt: number;
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Inside a script element the JSON must not be able to close it ("</script>") or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

async function readTranslations(distDir: string, language: Language): Promise<StartTranslations> {
  // The fallback language is shipped too: i18next looks a missing key up there.
  const wanted = language === defaultLanguage ? [language] : [language, defaultLanguage];
  const translations: StartTranslations = {};
  for (const lng of wanted) {
    const files = await Promise.all(
      startNamespaces.map(async (ns) => {
        const text = await readFile(join(distDir, "locales", lng, `${ns}.json`), "utf8").catch(() => undefined);
        return [ns, text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>)] as const;
      }),
    );
    // A build without one of them: the web app loads them itself, as it would without this data.
    if (files.every(([, content]) => content !== undefined)) {
      translations[lng] = Object.fromEntries(files) as Record<
        (typeof startNamespaces)[number],
        Record<string, unknown>
      >;
    }
  }
  return translations;
}

/** What the build says each page loads lazily; an older build without the file: nothing to preload. */
async function readRoutePreloads(distDir: string): Promise<RoutePreloads> {
  const text = await readFile(join(distDir, routePreloadsFile), "utf8").catch(() => undefined);
  return text === undefined ? {} : (JSON.parse(text) as RoutePreloads);
}

/**
 * The page a path under `/{lang}/` names ("" for the login page, "admin" for the console's screens);
 * undefined for paths outside a language (the app redirects those first, so preloading would guess).
 */
function pageOf(url: string): string | undefined {
  const [, first = "", page = ""] = (url.split("?")[0] ?? "/").split("/");
  return isLanguage(first) ? page : undefined;
}

/** The page's own chunks as modulepreload links (crossorigin as Vite's own, so the fetch is reused). */
function preloadLinks(preloads: RoutePreloads, page: string | undefined, signedOut: boolean): string {
  const entry = page ? preloads[page as keyof RoutePreloads] : undefined;
  // A signed-out visitor of a signed-in page is sent to the login page: its code would be wasted bytes.
  if (!entry || (entry.signedIn && signedOut)) return "";
  return entry.scripts
    .filter((file) => /^assets\/[\w.-]+\.js$/.test(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join("");
}

function withBootData(html: string, language: Language, boot: BootData, links: string): string {
  const element = `<script type="application/json" id="${bootDataElementId}">${scriptSafeJson(boot)}</script>`;
  return html.replace(/<html lang="[^"]*"/, `<html lang="${language}"`).replace("</head>", `${links}${element}</head>`);
}

/**
 * The app's page with the deployment's settings and the first screen's translations written in (a JSON
 * script element, which CSP does not treat as a script), so nothing the first screen shows waits for
 * requests made after the JavaScript. One rendering per language, compressed once, redone after a rebuild.
 */
export function indexPageRenderer(app: FastifyInstance, distDir: string) {
  // One rendering per language, per "came without a session cookie" and per page with something to preload.
  const rendered = new Map<string, RenderedPage>();
  const indexFile = join(distDir, "index.html");
  let preloads: { builtAt: number; pages: RoutePreloads } | undefined;

  async function render(language: Language, signedOut: boolean, page: string | undefined): Promise<RenderedPage> {
    const builtAt = (await stat(indexFile)).mtimeMs;
    // Read once per build, not per request (a rebuild rewrites index.html, so its time tells).
    if (preloads?.builtAt !== builtAt) preloads = { builtAt, pages: await readRoutePreloads(distDir) };
    const links = preloadLinks(preloads.pages, page, signedOut);
    const key = `${language}:${signedOut}:${links === "" ? "" : page}`;
    const known = rendered.get(key);
    if (known && known.builtAt === builtAt) return known;
    const translations = await readTranslations(distDir, language);
    const boot: BootData = { settings: publicSettings(app), translations, signedOut };
    const plain = Buffer.from(withBootData(await readFile(indexFile, "utf8"), language, boot, links));
    const fresh: RenderedPage = {
      builtAt,
      plain,
      br: await brotli(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: await gzipAsync(plain, { level: 9 }),
    };
    rendered.set(key, fresh);
    return fresh;
  }

  return async function sendIndexPage(request: FastifyRequest, reply: FastifyReply, status: number) {
    // A path that is no page renders the not-found screen: nothing of a page to preload.
    const page = status === 200 ? pageOf(request.url) : undefined;
    // The web app's own order: the path's language segment, then the remembered choice, then Ukrainian.
    const language = chooseLanguage({
      requested: (request.url.split("?")[0] ?? "/").split("/")[1],
      chosen: request.cookies?.i18next,
    });
    const rendering = await render(language, readSessionCookie(request) === undefined, page);
    const accepted = String(request.headers["accept-encoding"] ?? "");
    reply
      .code(status)
      .header("cache-control", "no-cache")
      .header("vary", "accept-encoding, cookie")
      .type("text/html; charset=utf-8");
    if (/\bbr\b/.test(accepted)) return reply.header("content-encoding", "br").send(rendering.br);
    if (/\bgzip\b/.test(accepted)) return reply.header("content-encoding", "gzip").send(rendering.gzip);
    return reply.send(rendering.plain);
  };
}
