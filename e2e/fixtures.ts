import { AxeBuilder } from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { AccountPage } from "./pages/account-page.ts";
import { AppsPage } from "./pages/apps-page.ts";
import { ButtonWizardPage } from "./pages/button-wizard-page.ts";
import { ConsentPage } from "./pages/consent-page.ts";
import { DemoSitePage } from "./pages/demo-site-page.ts";
import { DiiaQrPage } from "./pages/diia-qr-page.ts";
import { LoginPage } from "./pages/login-page.ts";

/** The demo people that `npm start` seeds (apps/server/src/surfaces/seed/demo-data.ts). */
export const demoUsers = {
  student: { username: "student", password: "student-demo-2026", fullName: "Олена Коваленко" },
  newcomer: { username: "newcomer", password: "newcomer-demo-2026", fullName: "Максим Бондар" },
} as const;

interface Fixtures {
  loginPage: LoginPage;
  appsPage: AppsPage;
  enLoginPage: LoginPage;
  enAppsPage: AppsPage;
  consentPage: ConsentPage;
  diiaQrPage: DiiaQrPage;
  demoSitePage: DemoSitePage;
  buttonWizardPage: ButtonWizardPage;
  enButtonWizardPage: ButtonWizardPage;
  accountPage: AccountPage;
  enAccountPage: AccountPage;
}

export const test = base.extend<Fixtures>({
  loginPage: async ({ page }, use) => use(new LoginPage(page, "uk")),
  appsPage: async ({ page }, use) => use(new AppsPage(page, "uk")),
  enLoginPage: async ({ page }, use) => use(new LoginPage(page, "en")),
  enAppsPage: async ({ page }, use) => use(new AppsPage(page, "en")),
  consentPage: async ({ page }, use) => use(new ConsentPage(page, "uk")),
  diiaQrPage: async ({ page }, use) => use(new DiiaQrPage(page, "uk")),
  demoSitePage: async ({ page }, use) => use(new DemoSitePage(page)),
  buttonWizardPage: async ({ page }, use) => use(new ButtonWizardPage(page, "uk")),
  enButtonWizardPage: async ({ page }, use) => use(new ButtonWizardPage(page, "en")),
  accountPage: async ({ page }, use) => use(new AccountPage(page, "uk")),
  enAccountPage: async ({ page }, use) => use(new AccountPage(page, "en")),
});

export { expect };

/** Runs axe-core (WCAG 2.x A and AA) on the page as it is now and fails with the violations listed. */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  // Legacy mode runs axe inside the page; the default opens a helper page, which Debian's Chromium refuses here.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary, `axe violations${context ? ` on ${context}` : ""}`).toEqual([]);
}

/** Signs in with a password through the real login screen and waits for the apps list. */
export async function signInWithPassword(
  loginPage: LoginPage,
  user: { username: string; password: string },
): Promise<void> {
  await loginPage.goto();
  await loginPage.signIn(user.username, user.password);
  await loginPage.page.waitForURL(/\/(uk|en)\/apps/);
}
