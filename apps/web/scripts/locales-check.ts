import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { errorCodes } from "@kpi-id/contracts";
import type { Plugin } from "vite";

// import.meta.dirname where the runtime gives it (Node, vitest under jsdom); the URL otherwise.
const webRoot = join(import.meta.dirname ?? dirname(fileURLToPath(import.meta.url)), "..");
export const defaultLocalesDir = join(webRoot, "public/locales");
export const defaultSourceDir = join(webRoot, "src");

// i18next picks the plural form by language: Ukrainian needs few and many, English does not.
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") keys.set(path, value);
    else for (const [inner, text] of flatten(value, path)) keys.set(inner, text);
  }
  return keys;
}

// Each namespace's key sets, made once: the checks below ask for them once per key the source uses.
const baseKeySets = new WeakMap<Map<string, string>, Set<string>>();
const groupKeySets = new WeakMap<Map<string, string>, Set<string>>();

function baseKeys(keys: Map<string, string>): Set<string> {
  let base = baseKeySets.get(keys);
  if (!base) {
    base = new Set([...keys.keys()].map((key) => key.replace(pluralSuffix, "")));
    baseKeySets.set(keys, base);
  }
  return base;
}

/**
 * The groups of keys in a namespace: "faq" and "faq.sections" when "faq.sections.0.title" is a key. The source
 * may pass a group on as a value the code builds full keys under (`${prefix}.sections.${index}`, where the prefix
 * is written out as "pages:faq"), but never show one: t("admin:wifi") would print the raw key.
 */
function groupKeys(keys: Map<string, string>): Set<string> {
  const made = groupKeySets.get(keys);
  if (made) return made;
  const groups = new Set<string>();
  for (const key of baseKeys(keys)) {
    const parts = key.split(".");
    for (let end = 1; end < parts.length; end++) groups.add(parts.slice(0, end).join("."));
  }
  groupKeySets.set(keys, groups);
  return groups;
}

function readLocales(localesDir: string): Map<string, Map<string, Map<string, string>>> {
  const byLanguage = new Map<string, Map<string, Map<string, string>>>();
  for (const language of readdirSync(localesDir)) {
    const dir = join(localesDir, language);
    if (!statSync(dir).isDirectory()) continue;
    const namespaces = new Map<string, Map<string, string>>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      namespaces.set(file.replace(/\.json$/, ""), flatten(JSON.parse(readFileSync(join(dir, file), "utf8")) as Tree));
    }
    byLanguage.set(language, namespaces);
  }
  return byLanguage;
}

interface SourceFile {
  path: string;
  text: string;
}

/** The app's source files (tests left out), each read once for all the checks. */
function readSources(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return readSources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [{ path, text: readFileSync(path, "utf8") }]
      : [];
  });
}

/**
 * "shown" when the string is what t() or <Trans i18nKey> prints, so it must be a key; "named" when it is a value
 * passed on (a prop, a constant, a fallback), which may also be a group the code completes.
 */
type SourceUse = "shown" | "named";
// What stands right before a string that t( or i18nKey= prints: `t("`, `i18n.t(\n  "`, `i18nKey="`, `i18nKey={"`.
const shownDirectly = /(?:\bt\(|\bi18nKey=\{?)\s*$/;

/**
 * Keys written out in full in the source: every string "ns:key", wherever it stands. Not only t("ns:key")
 * and i18nKey="ns:key": a key also reaches t() as describeError's fallback, a constant, a ternary's branch,
 * a helper's return value or an object's field, and a check that knew only some call shapes missed those.
 * Strings that merely look like keys ("sm:flex-1", "kpi-id:…") are skipped by their unknown namespace.
 * And every error code the server can send, since the app shows each by its code (`errors:` + code).
 */
function usedKeys(sources: SourceFile[]): Map<string, SourceUse> {
  const used = new Map<string, SourceUse>(errorCodes.map((code) => [`errors:${code}`, "shown"]));
  // A key ends in a letter or digit: "ns:group." is the start of one the code completes, not a key.
  const pattern = /(["'`])([a-z][\w-]*:[\w.-]*\w)\1/g;
  for (const { text } of sources) {
    for (const match of text.matchAll(pattern)) {
      if (!match[2]) continue;
      const use = shownDirectly.test(text.slice(Math.max(0, match.index - 40), match.index)) ? "shown" : "named";
      // One place that shows it is enough to hold it to a key.
      if (used.get(match[2]) !== "shown") used.set(match[2], use);
    }
  }
  return used;
}

/**
 * The namespaces a file's bare keys (t("people.invited"), no "ns:") are looked up in: the first namespace of each
 * useTranslation in the file, the app's default ("common") for one that names none. Several components in one file
 * may each have their own, so a bare key is held to be in one of them.
 */
function defaultNamespaces(text: string): string[] {
  return [...text.matchAll(/useTranslation\(\s*(?:\[\s*)?(?:(["'])([\w-]+)\1)?/g)].map((match) => match[2] ?? "common");
}

/** Bare keys written out in t("…") calls, with the file and the namespaces they are looked up in. */
function bareKeys(sources: SourceFile[], sourceDir: string): { file: string; key: string; namespaces: string[] }[] {
  const found: { file: string; key: string; namespaces: string[] }[] = [];
  for (const { path, text } of sources) {
    const namespaces = defaultNamespaces(text);
    // A file with no useTranslation of its own gets its t() from a caller: which namespace it holds is not written here.
    if (namespaces.length === 0) continue;
    for (const match of text.matchAll(/\bt\(\s*(["'])([A-Za-z][\w.-]*\w)\1/g)) {
      if (match[2]) found.push({ file: relative(sourceDir, path), key: match[2], namespaces });
    }
  }
  return found;
}

/** A bare key missing from every namespace its file looks it up in, per language: i18next would show it raw. */
function bareKeyProblems(
  locales: Map<string, Map<string, Map<string, string>>>,
  sources: SourceFile[],
  sourceDir: string,
): string[] {
  const problems = new Set<string>();
  for (const { file, key, namespaces } of bareKeys(sources, sourceDir)) {
    for (const [language, byNamespace] of locales) {
      const found = namespaces.some((namespace) => {
        const keys = byNamespace.get(namespace);
        return keys !== undefined && baseKeys(keys).has(key);
      });
      const where = namespaces.map((namespace) => `${namespace}.json`).join(" or ");
      if (!found) problems.add(`${language} lacks "${key}", shown by ${file}, in ${where}`);
    }
  }
  return [...problems];
}

/** Every problem that would show a raw key or a wrong language to someone; empty when all is well. */
export function findLocaleProblems(localesDir = defaultLocalesDir, sourceDir = defaultSourceDir): string[] {
  const problems: string[] = [];
  const locales = readLocales(localesDir);
  const languages = [...locales.keys()];
  const namespaces = new Set([...locales.values()].flatMap((byNs) => [...byNs.keys()]));
  for (const namespace of namespaces) {
    const keysPerLanguage = languages.map((language) => locales.get(language)?.get(namespace));
    const all = new Set(keysPerLanguage.flatMap((keys) => (keys ? [...baseKeys(keys)] : [])));
    for (const [index, language] of languages.entries()) {
      const keys = keysPerLanguage[index];
      if (!keys) {
        problems.push(`${language}/${namespace}.json is missing`);
        continue;
      }
      const present = baseKeys(keys);
      for (const key of all) if (!present.has(key)) problems.push(`${language}/${namespace}.json lacks "${key}"`);
      for (const [key, text] of keys)
        if (text.trim() === "") problems.push(`${language}/${namespace}.json has an empty "${key}"`);
    }
  }
  if (existsSync(sourceDir)) {
    const sources = readSources(sourceDir);
    for (const [used, use] of usedKeys(sources)) {
      const [namespace = "", key = ""] = used.split(":");
      if (!namespaces.has(namespace)) continue;
      for (const language of languages) {
        const keys = locales.get(language)?.get(namespace);
        if (!keys || baseKeys(keys).has(key)) continue;
        if (use === "named" && groupKeys(keys).has(key)) continue;
        problems.push(
          groupKeys(keys).has(key)
            ? `${language}/${namespace}.json has "${key}" as a group, not a key, shown by the source`
            : `${language}/${namespace}.json lacks "${key}" used in the source`,
        );
      }
    }
    problems.push(...bareKeyProblems(locales, sources, sourceDir));
  }
  return problems;
}

/** Fails `vite build` when a translation is missing in either language. */
export function localesCheck(localesDir = defaultLocalesDir, sourceDir = defaultSourceDir): Plugin {
  return {
    name: "kpi-id:locales-check",
    apply: "build",
    buildStart() {
      const problems = findLocaleProblems(localesDir, sourceDir);
      if (problems.length > 0) this.error(`translations are incomplete:\n  ${problems.join("\n  ")}`);
    },
  };
}
