import { demoUsers, expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { signedInOnApps } from "../tools/api-sign-in.ts";

test("the apps list shows each application's title and description in the page's language", async ({ page }) => {
  await signedInOnApps(page, "uk", demoUsers.student);
  const ukrainian = new AppsPage(page, "uk");
  await expect(ukrainian.cards.first()).toBeVisible();
  await expect(ukrainian.cards.filter({ hasText: "Електронний кампус" })).toContainText("Розклад, оцінки");

  // The language switch asks /user again, in English.
  await page.getByTestId("language-switch").click();
  await page.waitForURL(/\/en\/apps$/);
  const english = new AppsPage(page, "en");
  await expect(english.cards.filter({ hasText: "Electronic campus" })).toContainText("Timetable, marks");
  await expect(english.cards.filter({ hasText: "Електронний кампус" })).toHaveCount(0);
});
