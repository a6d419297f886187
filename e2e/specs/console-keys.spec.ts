import { generate } from "otplib";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { ConsoleServicePage } from "../pages/console-service-page.ts";
import { SecondFactorPage } from "../pages/second-factor-page.ts";
import { closeToasts } from "../pages/toasts.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { e2eDatabaseKind } from "../tools/e2e-databases.ts";
import { photograph } from "../tools/photographs.ts";

// What the rotation's confirmation names: the activation delay (120 s) and how long the old key stays published.
const consequence = {
  uk: ["2 хвилини", "лишиться опублікованим", "1 година 5 хвилин"],
  en: ["2 minutes", "stays published", "1 hour 5 minutes"],
} as const;

for (const language of ["uk", "en"] as const) {
  test.describe(`the console's signing keys, service and second factor reset (${language})`, () => {
    test("rotate the OpenID Connect signing key after the confirmation, then read the service's state", async ({
      page,
    }, testInfo) => {
      // A Diia sign-in, two screens and three axe runs: over a minute on a machine shared with other work.
      test.setTimeout(120_000);
      const console = new ConsolePage(page, language);
      const screens = new ConsoleServicePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      await screens.openKeys();
      await expectNoAxeViolations(page, "signing keys");
      const before = await screens.oidcRows.count();
      // A next key an earlier rotation left (the other language's walk on this server) is replaced, not added to.
      const nextRows = screens.oidcRows.filter({ hasText: screens.text.next });
      const waiting = await nextRows.count();
      const signing = (await screens.signingRow.locator("code").textContent()) ?? "";

      await screens.askToRotate();
      for (const words of consequence[language]) await expect(screens.confirmDialog).toContainText(words);
      await expectNoAxeViolations(page, "the rotation's confirmation");
      await screens.confirm();
      const rotated = page.getByText(screens.text.rotated).first();
      await expect(rotated).toBeVisible();
      await expect(screens.oidcRows).toHaveCount(before + 1 - waiting);
      await expect(nextRows).toHaveCount(1);
      // The new key is published at once and listed first; the old one signs until the activation delay passes.
      await expect(screens.oidcRows.first()).not.toContainText(signing);
      await expect(screens.oidcRows.first()).not.toContainText(screens.text.signing);
      await expect(screens.signingRow).toContainText(signing);
      // The rollover's states as the operator reads them: the new key next, the old one signing.
      await expect(screens.oidcRows.first()).toContainText(screens.text.next);
      await photograph(page, testInfo, `keys-${language}`, { part: page.getByTestId("oidc-keys") });

      await screens.openService();
      await expect(screens.database).toContainText(screens.text[e2eDatabaseKind()]);
      await expect(screens.health).toContainText(screens.text.ready);
      await expect(screens.version).toHaveText(/^\d+\.\d+\.\d+/);
      await expect(screens.updated).toBeVisible();
      const refreshed = page.waitForResponse((response) => response.url().endsWith("/api/admin/service"));
      await screens.refresh.click();
      expect((await refreshed).status()).toBe(200);
      await expect(screens.refresh).toBeEnabled();
      await closeToasts(page);
      await expect(rotated).toBeHidden();
      await expectNoAxeViolations(page, "service");
    });

    test("reset a person's second factor from the person screen after the confirmation", async ({ page, browser }) => {
      // Two browsers (the person's set-up, then the admin's Diia sign-in): more than a minute on a loaded machine.
      test.setTimeout(120_000);
      // The newcomer sets up an authenticator app in their own browser first.
      const own = await browser.newContext();
      const ownPage = await own.newPage();
      await signInThroughApi(ownPage, language, demoUsers.newcomer);
      await ownPage.goto(`/${language}/account#second-factor`);
      const mine = new SecondFactorPage(ownPage, language);
      await mine.setUp.click();
      const secret = (await mine.secret.textContent()) ?? "";
      await mine.firstCode.fill(await generate({ secret }));
      await mine.turnOn.click();
      await expect(mine.recoveryCodes).toHaveCount(10);
      await mine.saved.click();
      await own.close();

      const console = new ConsolePage(page, language);
      const screens = new ConsoleServicePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      await console.findAndOpen("Бондар", demoUsers.newcomer.fullName);
      await expect(screens.secondFactorState).toContainText(screens.text.authenticatorOn);
      await screens.resetSecondFactor();
      await expect(screens.confirmDialog).toContainText(demoUsers.newcomer.fullName);
      await expectNoAxeViolations(page, "the reset's confirmation");
      await screens.confirm();
      const done = page.getByText(screens.text.resetDone).first();
      await expect(done).toBeVisible();
      await expect(screens.secondFactorState).toContainText(screens.text.authenticatorOff);
      // axe reads a toast that is still fading in as faint text; the page is checked once it has been closed.
      await closeToasts(page);
      await expect(done).toBeHidden();
      await expectNoAxeViolations(page, "a person after the reset");
    });
  });
}
