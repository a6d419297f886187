import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import {
  type BootData,
  bootDataElementId,
  type CurrentUser,
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
import { readSessionCookie } from "../../platform/http/session-cookie.ts";
import { currentSessionWithApplications } from "../../sign-in/session/current.ts";
import { currentUserAnswer } from "../user-api/answer.ts";
import { publicSettings } from "./public-settings.ts";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface RenderedPage {
  builtAt: number;
  plain: Buffer;
  /** Brotli's quality (gzip's level is at most 9): high for a page made once, lower for one made per request. */
  quality: number;
  /** Made on first use, for the encoding a browser asks for; a stored page keeps them. */
  br?: Buffer;
  gzip?: Buffer;
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

interface PageParts {
  builtAt: number;
  indexHtml: string;
  translations: StartTranslations;
  links: string;
}

/** Who the page is for: nobody, a person (their /user answer), or unknown (the app asks /user itself). */
interface Visitor {
  signedOut: boolean;
  user?: CurrentUser;
}

async function encoded(page: RenderedPage, encoding: "br" | "gzip"): Promise<Buffer> {
  if (encoding === "br") {
    page.br ??= await brotli(page.plain, { params: { [constants.BROTLI_PARAM_QUALITY]: page.quality } });
    return page.br;
  }
  page.gzip ??= await gzipAsync(page.plain, { level: Math.min(9, page.quality) });
  return page.gzip;
}

/**
 * The person the session cookie names, read as GET /user would: the page then carries the answer and a
 * signed-in screen renders without waiting for that call. A cookie naming no live session is cleared and
 * the page is signed out. When the session cannot be read (the database is away), the page is still sent,
 * without the person, and the app asks /user as it did before.
 */
async function visitorOf(request: FastifyRequest, reply: FastifyReply, language: Language): Promise<Visitor> {
  if (readSessionCookie(request) === undefined) return { signedOut: true };
  try {
    const session = await currentSessionWithApplications(request, reply);
    return session ? { signedOut: false, user: currentUserAnswer(session, language) } : { signedOut: true };
  } catch (error) {
    request.log.warn({ err: error }, "page sent without the person: the session could not be read");
    return { signedOut: false };
  }
}

/**
 * The app's page with the deployment's settings and the first screen's translations written in (a JSON
 * script element, which CSP does not treat as a script), so nothing the first screen shows waits for
 * requests made after the JavaScript. Pages without a person are made once per language and page and
 * compressed once (redone after a rebuild); a signed-in person's page carries their /user answer, so it is
 * made for each request and never stored by a cache.
 */
export function indexPageRenderer(app: FastifyInstance, distDir: string) {
  const parts = new Map<string, PageParts>();
  const rendered = new Map<string, RenderedPage>();
  const indexFile = join(distDir, "index.html");
  let preloads: { builtAt: number; pages: RoutePreloads } | undefined;

  async function pageParts(language: Language, signedOut: boolean, page: string | undefined): Promise<PageParts> {
    const builtAt = (await stat(indexFile)).mtimeMs;
    // Read once per build, not per request (a rebuild rewrites index.html, so its time tells).
    if (preloads?.builtAt !== builtAt) preloads = { builtAt, pages: await readRoutePreloads(distDir) };
    const links = preloadLinks(preloads.pages, page, signedOut);
    const key = `${language}:${links}`;
    const known = parts.get(key);
    if (known && known.builtAt === builtAt) return known;
    const fresh: PageParts = {
      builtAt,
      indexHtml: await readFile(indexFile, "utf8"),
      translations: await readTranslations(distDir, language),
      links,
    };
    parts.set(key, fresh);
    return fresh;
  }

  async function render(language: Language, visitor: Visitor, page: string | undefined): Promise<RenderedPage> {
    const made = await pageParts(language, visitor.signedOut, page);
    const boot: BootData = { settings: publicSettings(app), translations: made.translations, ...visitor };
    const plain = () => Buffer.from(withBootData(made.indexHtml, language, boot, made.links));
    // A person's page is theirs alone: made now, compressed quickly.
    if (visitor.user) return { builtAt: made.builtAt, plain: plain(), quality: 5 };
    const key = `${language}:${visitor.signedOut}:${made.links}`;
    const known = rendered.get(key);
    if (known && known.builtAt === made.builtAt) return known;
    const fresh: RenderedPage = { builtAt: made.builtAt, plain: plain(), quality: 11 };
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
    const visitor = await visitorOf(request, reply, language);
    const rendering = await render(language, visitor, page);
    const accepted = String(request.headers["accept-encoding"] ?? "");
    reply
      .code(status)
      // A page with the person's data in it is kept by no cache, the browser's included.
      .header("cache-control", visitor.user ? "no-store" : "no-cache")
      .header("vary", "accept-encoding, cookie")
      .type("text/html; charset=utf-8");
    if (/\bbr\b/.test(accepted)) return reply.header("content-encoding", "br").send(await encoded(rendering, "br"));
    if (/\bgzip\b/.test(accepted))
      return reply.header("content-encoding", "gzip").send(await encoded(rendering, "gzip"));
    return reply.send(rendering.plain);
  };
}
