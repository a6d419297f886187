import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import {
  type BootData,
  bootDataElementId,
  chooseLanguage,
  defaultLanguage,
  type Language,
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

function withBootData(html: string, language: Language, boot: BootData): string {
  const element = `<script type="application/json" id="${bootDataElementId}">${scriptSafeJson(boot)}</script>`;
  return html.replace(/<html lang="[^"]*"/, `<html lang="${language}"`).replace("</head>", `${element}</head>`);
}

/**
 * The app's page with the deployment's settings and the first screen's translations written in (a JSON
 * script element, which CSP does not treat as a script), so nothing the first screen shows waits for
 * requests made after the JavaScript. One rendering per language, compressed once, redone after a rebuild.
 */
export function indexPageRenderer(app: FastifyInstance, distDir: string) {
  // One rendering per language and per "came without a session cookie".
  const rendered = new Map<string, RenderedPage>();
  const indexFile = join(distDir, "index.html");

  async function render(language: Language, signedOut: boolean): Promise<RenderedPage> {
    const builtAt = (await stat(indexFile)).mtimeMs;
    const key = `${language}:${signedOut}`;
    const known = rendered.get(key);
    if (known && known.builtAt === builtAt) return known;
    const translations = await readTranslations(distDir, language);
    const boot: BootData = { settings: publicSettings(app), translations, signedOut };
    const plain = Buffer.from(withBootData(await readFile(indexFile, "utf8"), language, boot));
    const page: RenderedPage = {
      builtAt,
      plain,
      br: await brotli(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: await gzipAsync(plain, { level: 9 }),
    };
    rendered.set(key, page);
    return page;
  }

  return async function sendIndexPage(request: FastifyRequest, reply: FastifyReply, status: number) {
    // The web app's own order: the path's language segment, then the remembered choice, then Ukrainian.
    const language = chooseLanguage({
      requested: (request.url.split("?")[0] ?? "/").split("/")[1],
      chosen: request.cookies?.i18next,
    });
    const page = await render(language, readSessionCookie(request) === undefined);
    const accepted = String(request.headers["accept-encoding"] ?? "");
    reply
      .code(status)
      .header("cache-control", "no-cache")
      .header("vary", "accept-encoding, cookie")
      .type("text/html; charset=utf-8");
    if (/\bbr\b/.test(accepted)) return reply.header("content-encoding", "br").send(page.br);
    if (/\bgzip\b/.test(accepted)) return reply.header("content-encoding", "gzip").send(page.gzip);
    return reply.send(page.plain);
  };
}
