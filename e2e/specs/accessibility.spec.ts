import { devices, type Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { BankIdEntryPage } from "../pages/bankid-pages.ts";
import { DevicePage } from "../pages/device-page.ts";
import { signedInOnApps, signInThroughApi } from "../tools/api-sign-in.ts";
import { askForDeviceCode } from "../tools/device-codes.ts";
import { photographNow, sizeFor } from "../tools/photographs.ts";
import { views } from "../tools/walk.ts";

const publicScreens = [
  "/",
  "/?google_auth_error=true",
  "/?bankid_auth_error=no_account",
  "/faq",
  "/privacy-policy",
  "/terms-of-use",
  "/auth-success",
  "/diia",
  "/forgot-password",
  "/forgot-password?via=email",
  "/forgot-password?via=diia",
  "/forgot-password?via=bankid",
  "/forgot-password?via=bankid&bankid_auth_error=cancelled",
  "/reset-password#token=unknown",
  "/no-such-page",
];

/** Every page names itself in the tab, in its language: the walk reads the title of each it visits (issue 75 moved
 * this here from titles.spec.ts, which loaded the same pages again only for it). */
const titles: Record<string, Record<"uk" | "en", string>> = {
  "/": { uk: "Вхід — KPI ID", en: "Sign in — KPI ID" },
  "/diia": { uk: "Вхід через Дію — KPI ID", en: "Sign in with Diia — KPI ID" },
  "/faq": { uk: "Питання та відповіді — KPI ID", en: "Questions and answers — KPI ID" },
  "/privacy-policy": { uk: "Політика конфіденційності — KPI ID", en: "Privacy policy — KPI ID" },
  "/terms-of-use": { uk: "Умови використання — KPI ID", en: "Terms of use — KPI ID" },
  "/button-wizard": { uk: "Кнопка входу для вашого сайту — KPI ID", en: "Sign-in button for your site — KPI ID" },
  "/no-such-page": { uk: "Сторінку не знайдено — KPI ID", en: "Page not found — KPI ID" },
};

/** The page's title, where the table names one for its path. */
async function expectTitle(page: Page, path: string, language: "uk" | "en"): Promise<void> {
  const title = titles[path]?.[language];
  if (title) await expect(page).toHaveTitle(title);
}

// The screen walk (issue 37): every screen checked by axe in each of the walk's views (tools/walk.ts: both languages at a
// laptop's width, Ukrainian at a phone's), and photographed for a person to look at when asked (tools/photographs.ts).

// One page for the whole walk of the public screens, kept by the worker: each screen is still a page load of
// its own (goto), and none of them signs in or changes anything. A new browser context and page for each of
// the 60 screens started and tore down a renderer process each time, 1-2 s of CPU under the suite's load on
// two cores, more than some screens' own checks (issue 41).
const walk = test.extend<object, { walkPage: Page }>({
  walkPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext({
        ...devices["Desktop Chrome"],
        baseURL: `http://localhost:${Number(process.env.E2E_PORT_BASE ?? 3300)}`,
      });
      await use(await context.newPage());
      await context.close();
    },
    { scope: "worker" },
  ],
});

for (const { language, width } of views) {
  for (const path of publicScreens) {
    walk(`/${language}${path} at ${width} px passes axe`, async ({ walkPage: page }, testInfo) => {
      await page.setViewportSize(sizeFor(width));
      await page.goto(`/${language}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectTitle(page, path, language);
      await expectNoAxeViolations(page, `/${language}${path} at ${width} px`);
      await photographNow(page, testInfo, `${language}-${width}-${path}`);
    });
  }
}

// A signed-in person's own screens: the applications, the account page and the button wizard.
const signedInScreens = [
  { path: "/apps", ready: "app-card" },
  { path: "/account", ready: "account-activity" },
  { path: "/button-wizard", ready: null },
] as const;

for (const { language, width } of views) {
  test(`a student's own screens at ${width} px pass axe (${language})`, async ({ page }, testInfo) => {
    await page.setViewportSize(sizeFor(width));
    await signInThroughApi(page, language, demoUsers.student);
    for (const screen of signedInScreens) {
      await page.goto(`/${language}${screen.path}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (screen.ready) await expect(page.getByTestId(screen.ready).first()).toBeVisible();
      await expectTitle(page, screen.path, language);
      await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
      await expectNoAxeViolations(page, `${screen.path} at ${width} px (${language})`);
      await photographNow(page, testInfo, `${language}-${width}-${screen.path}`);
    }
  });
}

test("the apps screen and the My data dialog pass axe", async ({ page, appsPage }) => {
  await signedInOnApps(page, "uk", demoUsers.student);
  await expect(appsPage.cards.first()).toBeVisible();
  await expectNoAxeViolations(appsPage.page, "apps");
  await appsPage.myDataLink.click();
  await expect(appsPage.myData).toBeVisible();
  await expectNoAxeViolations(appsPage.page, "my data dialog");
});

// The university's bank picker (issue 38): opened, its list loaded, one bank chosen; and the return page.
for (const { language, width } of views) {
  test(`the BankID bank picker and return page at ${width} px pass axe (${language})`, async ({ page }, testInfo) => {
    await page.setViewportSize(sizeFor(width));
    const bankId = new BankIdEntryPage(page, language);
    await page.goto(`/${language}/`);
    await bankId.button.click();
    await bankId.banks.first().check();
    await expectNoAxeViolations(page, `bank picker at ${width} px (${language})`);
    await photographNow(page, testInfo, `${language}-${width}-bank-picker`);
    // An empty answer (204) cancels the page load, so the return page stays on screen.
    await page.route("**/bankid/auth?*", (route) => route.fulfill({ status: 204 }));
    await page.goto(`/${language}/bankid-auth?code=abc&state=xyz`);
    await expect(bankId.returning).toBeVisible();
    await expectNoAxeViolations(page, `BankID return page at ${width} px (${language})`);
    await photographNow(page, testInfo, `${language}-${width}-bankid-auth`);
  });
}

test("the login screen with the invalid-credentials alert passes axe", async ({ loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn("student", "wrong");
  await expect(loginPage.invalidCredentials).toBeVisible();
  await expectNoAxeViolations(loginPage.page, "login alert");
});

// The device sign-in page (issue 39): the code, a wrong code, the request to allow, allowed, denied.
for (const { language, width } of views) {
  test(`the device sign-in screens at ${width} px pass axe (${language})`, async ({ page, baseURL }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize(sizeFor(width));
    await signInThroughApi(page, language, demoUsers.student);
    const device = new DevicePage(page, language);
    const check = async (name: string) => {
      await expectNoAxeViolations(page, `device ${name} at ${width} px (${language})`);
      await photographNow(page, testInfo, `${language}-${width}-device-${name}`);
    };
    await device.goto();
    await expect(device.code).toBeVisible();
    await check("enter");
    await device.enter("0000-0002");
    await expect(device.codeError).toBeVisible();
    await check("wrong-code");
    for (const answer of ["allow", "deny"] as const) {
      const code = await askForDeviceCode(baseURL ?? "", language);
      await page.goto(code.verification_uri_complete);
      await device.continue.click();
      await expect(device.confirm).toBeVisible();
      if (answer === "allow") await check("confirm");
      await device[answer].click();
      await expect(answer === "allow" ? device.allowed : device.denied).toBeVisible();
      await check(answer === "allow" ? "allowed" : "denied");
    }
  });
}
