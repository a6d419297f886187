import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";

const moreColumns = { uk: "Гортайте вбік, щоб побачити інші стовпці", en: "Scroll sideways for more columns" } as const;

// On a phone the people table is wider than the screen: the status and actions columns are off to the
// right. A keyboard user must be able to reach and scroll them, and everyone must see that they exist.
for (const language of ["uk", "en"] as const) {
  test(`the console's tables on a phone say that more columns exist and scroll with the keyboard (${language})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const console = new ConsolePage(page, language);
    await console.signInWithDiiaThroughApi("employee");
    // A person's link, not any row: until the list's answer the table holds placeholder rows.
    await expect(console.peopleTable.getByRole("link").first()).toBeVisible();
    await expect(page.getByText(moreColumns[language])).toBeVisible();

    await console.peopleTable.focus();
    await expect(console.peopleTable).toBeFocused();
    const scrolledBy = () => console.peopleTable.evaluate((box) => box.scrollLeft);
    expect(await scrolledBy()).toBe(0);
    await page.keyboard.press("End");
    for (let step = 0; step < 40 && (await page.getByText(moreColumns[language]).count()) > 0; step++) {
      await page.keyboard.press("ArrowRight");
    }
    expect(await scrolledBy()).toBeGreaterThan(0);
    // Scrolled to the end, nothing is hidden any more, so the hint goes.
    await expect(page.getByText(moreColumns[language])).toHaveCount(0);
    await expectNoAxeViolations(page, "people on a phone");
  });
}
