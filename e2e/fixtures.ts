import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

// The axe-core that @axe-core/playwright itself runs (resolved from it), minified. The builder evaluates its
// unminified source (1.3 MB) into the page twice on every check, once for the page and once more for each frame,
// and parsing it cost more of the browser's CPU than the check itself (the login page: about 0.5 s of axe.run and
// 1.3 s of injecting it). The page keeps axe between checks of the same document, so it is injected once per page
// load (issue 63).
const axeSource = readFileSync(
  createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright")).resolve("axe-core/axe.min.js"),
  "utf8",
);
const frameTimeoutMs = 1_000;

/** Puts axe into every frame of the page that does not have it yet; a child frame that refuses is left out. */
async function injectAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    const main = frame === page.mainFrame();
    const loaded = frame.evaluate("typeof window.axe?.run === 'function'");
    if (main) {
      if (!(await loaded)) await frame.evaluate(axeSource);
      continue;
    }
    // As the builder does for frames: a frame that does not answer within a second is not checked.
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, frameTimeoutMs).unref());
    const inject = loaded.then((has) => (has ? undefined : frame.evaluate(axeSource))).catch(() => undefined);
    await Promise.race([inject, timeout]);
  }
}

/**
 * Waits, at most 3 s, until no finite animation or transition runs: axe reads a colour mid-fade (a toast coming in)
 * as faint text, and with axe injected once per page load a check can start within a toast's 0.4 s entrance (the CI
 * rehearsal's one failure). A page that keeps moving longer is checked as it is.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 3_000, polling: 100 },
    )
    .catch(() => undefined);
}

/** Runs axe-core (WCAG 2.x A and AA) on the page as it is now and fails with the violations listed. */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  await settleAnimations(page);
  await injectAxe(page);
  // Legacy mode runs axe inside the page; the default opens a helper page, which Debian's Chromium refuses here.
  // The builder's own source is a no-op: axe is in the page already (above). Only the violations are read, so axe
  // builds the selectors of every node of those alone, not of every element that passed a rule too.
  const results = await new AxeBuilder({ page, axeSource: "void 0" })
    .setLegacyMode(true)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .options({ resultTypes: ["violations"] })
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
