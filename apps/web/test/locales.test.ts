import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditEventTypes, integrationFailureReasons } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { findLocaleProblems, localesCheck } from "../scripts/locales-check.ts";

/** Locale files (objects, written as JSON) and source files (strings, written as they are) in a fresh directory. */
function writeLocales(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "kpi-locales-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

describe("translations", () => {
  it("are complete in Ukrainian and English for every key the app uses", () => {
    expect(findLocaleProblems()).toEqual([]);
  });

  it("a key missing in one language is reported", () => {
    const dir = writeLocales({
      "uk/common.json": { a: "а", b: { c: "в" } },
      "en/common.json": { a: "a" },
    });
    expect(findLocaleProblems(dir, join(dir, "no-source"))).toEqual(['en/common.json lacks "b.c"']);
  });

  it("plural forms may differ between the languages", () => {
    const dir = writeLocales({
      "uk/common.json": { n_one: "1", n_few: "2", n_many: "5", n_other: "x" },
      "en/common.json": { n_one: "1", n_other: "x" },
    });
    expect(findLocaleProblems(dir, join(dir, "no-source"))).toEqual([]);
  });

  it("a key the source names outside t(), such as describeError's fallback, is reported when a language lacks it", () => {
    // "gone" was deleted from both languages, so only the source's use of it can tell; "half" from English alone.
    const dir = writeLocales({
      "locales/uk/common.json": { kept: "є", half: "половина", faq: { title: "Питання" } },
      "locales/en/common.json": { kept: "here", faq: { title: "Questions" } },
      "src/form.tsx": [
        "const describeError = useErrorMessage();",
        'notify("error", describeError(save.error, "common:gone").message);',
        'const failure = describeError(error.cause, "common:half");',
        '<p>{t("common:kept")}</p>',
        // Groups the code builds keys under, and strings that only look like keys, are not reported.
        '<Sections prefix="common:faq" />',
        '<div className="sm:flex-1" />',
        'const STORAGE_KEY = "kpi-id:chunk-reload-at";',
        'const group = "common:missing.";',
      ].join("\n"),
    });
    // Sorted: the languages come in the directory's order.
    expect(findLocaleProblems(join(dir, "locales"), join(dir, "src")).sort()).toEqual([
      'en/common.json lacks "gone" used in the source',
      'en/common.json lacks "half"',
      'en/common.json lacks "half" used in the source',
      'uk/common.json lacks "gone" used in the source',
    ]);
  });

  it("a group of keys shown by t() or <Trans i18nKey> is reported; passed on as a value, it is not", () => {
    const dir = writeLocales({
      "locales/uk/admin.json": { wifi: { title: "Wi-Fi", off: "Вимкнено" }, faq: { sections: { 0: "Питання" } } },
      "locales/en/admin.json": { wifi: { title: "Wi-Fi", off: "Off" }, faq: { sections: { 0: "Question" } } },
      "src/wifi.tsx": [
        '<h2>{t("admin:wifi.title")}</h2>',
        // A group printed: i18next would show the raw key "wifi".
        '<p>{t("admin:wifi")}</p>',
        '<p>{i18n.t(\n  "admin:faq.sections")}</p>',
        '<Trans i18nKey="admin:wifi" />',
        // A group passed on for the code to complete, as content-pages passes "pages:faq" to its sections.
        '<Sections prefix="admin:faq" />',
      ].join("\n"),
    });
    expect(findLocaleProblems(join(dir, "locales"), join(dir, "src")).sort()).toEqual([
      'en/admin.json has "faq.sections" as a group, not a key, shown by the source',
      'en/admin.json has "wifi" as a group, not a key, shown by the source',
      'uk/admin.json has "faq.sections" as a group, not a key, shown by the source',
      'uk/admin.json has "wifi" as a group, not a key, shown by the source',
    ]);
  });

  it('a bare key, t("people.invited"), is looked up in its file\'s useTranslation namespaces and reported when missing', () => {
    const dir = writeLocales({
      "locales/uk/developers.json": { people: { invited: "Запрошено", remove: "Прибрати" } },
      "locales/en/developers.json": { people: { invited: "Invited" } },
      "locales/uk/common.json": { close: "Закрити" },
      "locales/en/common.json": { close: "Close" },
      "src/people.tsx": [
        'const { t } = useTranslation(["developers", "errors"]);',
        '<p>{t("people.invited")}</p>',
        // Missing in English: it would show in Ukrainian there.
        '<Button>{t("people.remove")}</Button>',
        // Deleted from both: the raw key would show.
        "<span>{t('people.gone')}</span>",
      ].join("\n"),
      // Two components in one file, each with its own namespace; useTranslation() looks in "common".
      "src/dialog.tsx": [
        'const { t } = useTranslation("developers");',
        "const { t: tc } = useTranslation();",
        '<p>{t("close")}</p>',
      ].join("\n"),
      // No useTranslation: its t() comes from a caller, in a namespace not written here.
      "src/format.ts": 'export const label = (t: TFunction) => t("anything.at.all");',
    });
    expect(findLocaleProblems(join(dir, "locales"), join(dir, "src")).sort()).toEqual([
      'en lacks "people.gone", shown by people.tsx, in developers.json',
      'en lacks "people.remove", shown by people.tsx, in developers.json',
      'en/developers.json lacks "people.remove"',
      'uk lacks "people.gone", shown by people.tsx, in developers.json',
    ]);
  });

  it("stop the build when one is missing", () => {
    const dir = writeLocales({ "uk/pages.json": { title: "Назва" }, "en/pages.json": {} });
    const plugin = localesCheck(dir, join(dir, "no-source"));
    const error = (message: string) => {
      throw new Error(message);
    };
    const buildStart = plugin.buildStart as (this: { error: typeof error }) => void;
    expect(() => buildStart.call({ error })).toThrow('en/pages.json lacks "title"');
  });

  it("name every kind of event in the person's words and the console's, in both languages (no raw type shown)", () => {
    for (const language of ["uk", "en"]) {
      const locale = (namespace: string) =>
        JSON.parse(
          readFileSync(join(import.meta.dirname, "..", "public", "locales", language, `${namespace}.json`), "utf8"),
        );
      const account = locale("account").activity.types as Record<string, string>;
      const console_ = locale("admin-records").events as Record<string, string>;
      const untranslated = auditEventTypes.filter((type) => !account[type] || !console_[type]);
      expect(untranslated, language).toEqual([]);
    }
  });

  it("name every integration failure reason and its fix for the developers' health view, in both languages", () => {
    for (const language of ["uk", "en"]) {
      const developers = JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "public", "locales", language, "developers.json"), "utf8"),
      );
      const failures = developers.failures as Record<string, { what?: string; fix?: string } | undefined>;
      const untranslated = integrationFailureReasons.filter(
        (reason) => !failures[reason]?.what || !failures[reason]?.fix,
      );
      expect(untranslated, language).toEqual([]);
    }
  });
});
