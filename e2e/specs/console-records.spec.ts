import { readFile } from "node:fs/promises";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";

const words = {
  uk: {
    imported: "Імпорт особи",
    dryRun: "Перевірка: нічого не змінено",
    applied: "Імпорт виконано",
    bad: "Неприпустиме значення",
  },
  en: {
    imported: "Person imported",
    dryRun: "Check: nothing was changed",
    applied: "The import is done",
    bad: "The value is not allowed",
  },
} as const;

for (const language of ["uk", "en"] as const) {
  test.describe(`the console's import and audit log (${language})`, () => {
    test("dry-run and apply an import with bad lines, then find it in the audit log and export it", async ({
      page,
    }) => {
      // People of this walk alone, so no other spec sees them.
      const run = `${language}${Date.now().toString(36)}`;
      const good = [`walk.${run}.a`, `walk.${run}.b`];
      const csv = [
        "username,full-name,email",
        `${good[0]},Ярина Імпортована,${good[0]}@kpi.ua`,
        `walk.${run}.bad,Погана Адреса,not-an-email`,
        `${good[1]},Євген Імпортований,`,
        `"walk.${run}.quote,Незакрита лапка,`,
      ].join("\r\n");

      const console = new ConsolePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      await page.goto(`/${language}/admin/import`);
      await page
        .getByTestId("import-file")
        .setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByTestId("import-dry-run").click();
      await expect(page.getByTestId("import-report-title")).toContainText(words[language].dryRun);
      await expect(page.getByTestId("import-created")).toHaveText("2");
      await expect(page.getByTestId("import-rejected")).toHaveText("2");
      await expect(page.getByTestId("import-lines")).toContainText(words[language].bad);
      await expectNoAxeViolations(page, "import dry run");

      await page.getByTestId("import-apply").click();
      await page.getByTestId("confirm-action").click();
      await expect(page.getByTestId("import-report-title")).toContainText(words[language].applied);
      await expect(page.getByTestId("import-created")).toHaveText("2");
      await expect(page.getByTestId("import-rejected")).toHaveText("2");

      await page.goto(`/${language}/admin/audit`);
      await page.getByTestId("audit-person").fill(good[0] ?? "");
      await page.getByTestId("audit-type").selectOption("people_imported");
      await page.getByTestId("audit-apply").click();
      await expect(page).toHaveURL(/type=people_imported/);
      const rows = page.getByTestId("audit-table").locator("tbody tr");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(words[language].imported);
      await expect(rows.first()).toContainText("Ярина Імпортована");
      await expectNoAxeViolations(page, "audit log");

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
      const exported = await readFile((await download.path()) ?? "", "utf8");
      const lines = exported.trimEnd().split("\r\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`people_imported,success,,${good[0]},Ярина Імпортована`);
    });
  });
}
