import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsoleErasure } from "../pages/console-erasure-page.ts";
import { ConsoleImportPage } from "../pages/console-import-page.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { photograph } from "../tools/photographs.ts";

const words = {
  uk: {
    question: "Стерти персональні дані",
    done: "Персональні дані стерто",
    profile: "Поля профілю",
    erased: "стерто",
  },
  en: {
    question: "Erase the personal data of",
    done: "Personal data erased",
    profile: "Profile fields",
    erased: "erased on",
  },
} as const;

for (const language of ["uk", "en"] as const) {
  test.describe(`the console's erasure of a person (${language})`, () => {
    test("an admin erases a person on request: the dialog asks for the username, then shows what went", async ({
      page,
    }, testInfo) => {
      test.slow();
      // A person of this walk alone, made by an import so no other spec sees them.
      const username = `erase.${language}${Date.now().toString(36)}`;
      const fullName = language === "uk" ? "Стерта Особа" : "Erased Person";
      const console = new ConsolePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      const importing = new ConsoleImportPage(page, language);
      await importing.open();
      await importing.choose("one.csv", `username,full-name,email\r\n${username},${fullName},${username}@kpi.ua\r\n`);
      await importing.checkFile();
      await importing.applyFile();
      await expect(importing.report).toHaveAttribute("data-status", "done", { timeout: 60_000 });

      await console.open();
      await console.findAndOpen(username, fullName);
      const erasure = new ConsoleErasure(page);
      await expect(erasure.section).toBeVisible();
      await erasure.start();
      await expect(erasure.dialog).toContainText(words[language].question);
      await erasure.username.fill("someone.else");
      await expect(erasure.submit).toBeDisabled();
      await erasure.username.fill(username);
      await expectNoAxeViolations(page, "erasure dialog");
      await photograph(page, testInfo, `erase-dialog-${language}`);
      await erasure.confirmAs(username);
      await expect(erasure.dialog).toContainText(words[language].done);
      await expect(erasure.counts).toContainText(words[language].profile);
      await photograph(page, testInfo, `erase-done-${language}`);
      await page.keyboard.press("Escape");
      await expect(erasure.erasedNotice).toContainText(words[language].erased);
      await expect(erasure.section).toHaveCount(0);
      await expectNoAxeViolations(page, "erased person");
      await photograph(page, testInfo, `erased-person-${language}`);
      // The former username finds no one any more.
      await console.open();
      await console.search.fill(username);
      await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(username)}`));
      await expect(console.peopleTable.getByRole("link", { name: fullName })).toHaveCount(0);
    });
  });
}
