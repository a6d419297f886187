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
