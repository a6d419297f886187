import { demoUsers, expect, test } from "../fixtures.ts";

test("signing in, opening My data and closing it work by keyboard alone", async ({ page, loginPage, appsPage }) => {
  await loginPage.goto();
  // Skip link first, then the logo, the language switch and the form.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Перейти до основного вмісту" })).toBeFocused();
  await loginPage.username.focus();
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

  await appsPage.myDataLink.focus();
  await page.keyboard.press("Enter");
  await expect(appsPage.myData).toBeVisible();
  await expect(appsPage.myData).toContainText("Олена Коваленко");
  await page.keyboard.press("Escape");
  await expect(appsPage.myData).toBeHidden();
  await expect(appsPage.myDataLink).toBeFocused();
});
