import { expect, test } from "../fixtures.ts";

// Every other page's title, in both languages, is read where the accessibility walk visits it
// (accessibility.spec.ts, issue 75).
test.describe("the return pages name themselves in the tab, in their language", () => {
  // The pages a sign-in provider returns to; an empty answer (204) from the server's callback cancels the
  // page load, so the page stays on screen.
  const returnPages = [
    {
      name: "Google's",
      callback: "**/google/auth?*",
      path: "/google-auth?code=abc&state=xyz",
      title: "Вхід через Google — KPI ID",
      status: "Завершуємо вхід через Google…",
    },
    {
      name: "BankID's",
      callback: "**/bankid/auth?*",
      path: "/en/bankid-auth?code=abc&state=xyz",
      title: "Signing in with BankID — KPI ID",
      status: "Finishing BankID sign-in…",
    },
  ];
  for (const entry of returnPages) {
    test(`${entry.name} return page has the layout, a line of text and its title`, async ({ page }) => {
      await page.route(entry.callback, (route) => route.fulfill({ status: 204 }));
      await page.goto(entry.path);
      await expect(page).toHaveTitle(entry.title);
      await expect(page.getByRole("status")).toHaveText(entry.status);
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
    });
  }
});
