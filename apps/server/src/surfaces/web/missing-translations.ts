import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

// The web app's languages; a namespace is one file name of public/locales/{lng}/.
// Both only ever become JSON keys inside one fixed file, never a path.
const languageSchema = z.enum(["uk", "en"]);
const namespaceSchema = text().regex(/^[a-z][a-z0-9-]{0,39}$/);
const MAX_KEYS_PER_CALL = 50;
/** Beyond this many recorded keys the file stops growing; translators have enough to do. */
export const MAX_RECORDED_KEYS = 5000;

const missingKeysSchema = z
  .record(text().min(1).max(300), text().max(2000))
  .refine((keys) => Object.keys(keys).length <= MAX_KEYS_PER_CALL, { message: `at most ${MAX_KEYS_PER_CALL} keys` });

type Recorded = Record<string, Record<string, Record<string, string>>>;

export function missingTranslationsFile(dataDir: string): string {
  return join(dataDir, "missing-translations.json");
}

async function readRecorded(file: string): Promise<Recorded> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(await readFile(file, "utf8")) as Recorded;
  } catch {
    // A half-written or hand-edited file is replaced rather than blocking development.
    return {};
  }
}

function countKeys(recorded: Recorded): number {
  return Object.values(recorded).reduce(
    (sum, namespaces) => sum + Object.values(namespaces).reduce((inner, keys) => inner + Object.keys(keys).length, 0),
    0,
  );
}

/**
 * Development only: i18next reports keys the UI asked for but no translation
 * file has (POST /locales/add/{lng}/{ns}); they are collected in
 * DATA_DIR/missing-translations.json for translators. Not registered at all
 * outside development, so there the path is an ordinary 404.
 */
export const missingTranslationRoutes: FastifyPluginAsyncZod = async (app) => {
  const file = missingTranslationsFile(app.config.database.dataDir);
  // One write at a time, so concurrent reports never lose each other's keys.
  let queue: Promise<void> = Promise.resolve();

  const record = (language: string, namespace: string, keys: Record<string, string>) => {
    queue = queue.then(async () => {
      const recorded = await readRecorded(file);
      let room = MAX_RECORDED_KEYS - countKeys(recorded);
      const target = recorded[language] ?? {};
      const known = target[namespace] ?? {};
      target[namespace] = known;
      recorded[language] = target;
      for (const [key, fallback] of Object.entries(keys)) {
        if (key in known || room <= 0) continue;
        known[key] = fallback;
        room -= 1;
      }
      await mkdir(app.config.database.dataDir, { recursive: true });
      await writeFile(`${file}.tmp`, `${JSON.stringify(recorded, null, 2)}\n`);
      await rename(`${file}.tmp`, file);
    });
    return queue;
  };

  app.post(
    "/locales/add/:lng/:ns",
    {
      // The Vite dev server (another origin) proxies these calls; it is development only and writes one local file.
      config: { csrf: false },
      schema: {
        tags: ["web"],
        summary: "Development only: record translation keys the web app is missing",
        params: z.object({ lng: languageSchema, ns: namespaceSchema }),
        body: missingKeysSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await record(request.params.lng, request.params.ns, request.body);
      return reply.code(204).send(null);
    },
  );
};
