import type { Locator, Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";

/** Presses Tab until the locator has focus; fails if it is not reachable within `max` presses. */
async function tabTo(page: Page, target: Locator, max = 15): Promise<void> {
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reachable with Tab: ${target}`);
}

test("signing in, opening My data and signing out work by keyboard alone", async ({ page, loginPage, appsPage }) => {
  await loginPage.goto();
  // The first stop is the skip link, which moves focus to the content.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Перейти до основного вмісту" })).toBeFocused();

  await tabTo(page, loginPage.username);
  await page.keyboard.type(demoUsers.student.username);
  await page.keyboard.press("Tab");
  await expect(loginPage.password).toBeFocused();
  await page.keyboard.type(demoUsers.student.password);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Показати пароль" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(loginPage.password).toHaveAttribute("type", "text");
  await page.keyboard.press("Tab");
  await expect(loginPage.submit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(appsPage.url());

  await tabTo(page, appsPage.myDataLink);
  await page.keyboard.press("Enter");
  await expect(appsPage.myData).toBeVisible();
  await expect(appsPage.myData).toContainText(demoUsers.student.fullName);
  await page.keyboard.press("Escape");
  await expect(appsPage.myData).toBeHidden();
  await expect(appsPage.myDataLink).toBeFocused();

  await tabTo(page, appsPage.cards.first());
  await tabTo(page, appsPage.logout, 30);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/uk\/$/);
});

test("the language switch and the Diia entry are reachable and work by keyboard", async ({ page, loginPage }) => {
  await loginPage.goto();
  const diia = page.getByTestId("diia-login");
  await tabTo(page, diia, 20);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/uk\/diia$/);
  await tabTo(page, page.getByTestId("language-switch"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/en\/diia$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with Diia");
});
