import { expect, test } from "../fixtures.ts";

const titles: { path: string; uk: string; en: string }[] = [
  { path: "/", uk: "Вхід — KPI ID", en: "Sign in — KPI ID" },
  { path: "/diia", uk: "Вхід через Дію — KPI ID", en: "Sign in with Diia — KPI ID" },
  { path: "/faq", uk: "Питання та відповіді — KPI ID", en: "Questions and answers — KPI ID" },
  { path: "/privacy-policy", uk: "Політика конфіденційності — KPI ID", en: "Privacy policy — KPI ID" },
  { path: "/terms-of-use", uk: "Умови використання — KPI ID", en: "Terms of use — KPI ID" },
  {
    path: "/button-wizard",
    uk: "Кнопка входу для вашого сайту — KPI ID",
    en: "Sign-in button for your site — KPI ID",
  },
  { path: "/no-such-page", uk: "Сторінку не знайдено — KPI ID", en: "Page not found — KPI ID" },
];

test.describe("every page names itself in the tab, in its language", () => {
  for (const language of ["uk", "en"] as const) {
    test(`pages in ${language}`, async ({ page }) => {
      for (const entry of titles) {
        await page.goto(`/${language}${entry.path === "/" ? "/" : entry.path}`);
        await expect(page).toHaveTitle(entry[language]);
      }
    });
  }

  test("the Google callback page has the layout, a line of text and its title", async ({ page }) => {
    // An empty answer (204) cancels the page load, so the callback page stays on screen.
    await page.route("**/google/auth?*", (route) => route.fulfill({ status: 204 }));
    await page.goto("/google-auth?code=abc&state=xyz");
    await expect(page).toHaveTitle("Вхід через Google — KPI ID");
    await expect(page.getByRole("status")).toHaveText("Завершуємо вхід через Google…");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
  });
});
