import type { Browser, Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import type { AccountPage } from "../pages/account-page.ts";
import { GoogleStandInPage } from "../pages/google-stand-in-page.ts";
import type { Language } from "../pages/login-page.ts";
import { signedInOnApps, signInThroughApi } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";
import { withServerClockAdvanced } from "../tools/server-clock.ts";

/** Other devices of the person: browsers of their own, with user agents the account page names. */
const firefoxOnAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";
const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0";
const reauthMaxAgeSeconds = Number(process.env.E2E_REAUTH_MAX_AGE_SECONDS ?? 45);

/** A second browser (its own cookies) signed in as `user`; answers its page. */
async function otherDevice(
  browser: Browser,
  language: Language,
  user: { username: string; password: string },
  userAgent = firefoxOnAndroid,
) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await signInThroughApi(page, language, user);
  return page;
}

/** Whether that browser is still signed in: the apps list stays, or it is sent to the login screen. */
async function expectSignedOut(page: Page, language: Language) {
  await page.goto(`/${language}/apps`);
  await expect(page).toHaveURL(new RegExp(`/${language}/?$`));
}

for (const language of ["uk", "en"] as const) {
  test.describe(`the account page (${language})`, () => {
    const pick = (uk: AccountPage, en: AccountPage) => (language === "uk" ? uk : en);

    test("linked from the apps screen; every section shows; axe clean", async ({
      page,
      accountPage,
      enAccountPage,
    }) => {
      const account = pick(accountPage, enAccountPage);
      await signedInOnApps(page, language, demoUsers.student);
      await page.getByTestId("account-link").click();
      await expect(page).toHaveURL(account.url());
      await expect(account.heading).toBeVisible();
      await expect(account.profile).toContainText(demoUsers.student.fullName);
      await expect(account.currentSession()).toHaveCount(1);
      await expect(account.applications).toBeVisible();
      await expect(account.methods.getByTestId("method-password")).toBeVisible();
      await expect(account.activity.getByTestId("activity").first()).toBeVisible();
      await expectNoAxeViolations(page, `account page (${language})`);
    });

    test("download my data: one JSON file with the profile, labelled in both languages", async ({
      page,
      accountPage,
      enAccountPage,
    }, testInfo) => {
      const account = pick(accountPage, enAccountPage);
      await signedInOnApps(page, language, demoUsers.student);
      await page.getByTestId("account-link").click();
      await expect(page).toHaveURL(account.url());
      const section = page.getByTestId("account-data");
      await photograph(page, testInfo, `account-data-${language}`, { part: section });
      const saving = page.waitForEvent("download");
      await section
        .getByRole("button", { name: language === "uk" ? "Завантажити мої дані" : "Download my data" })
        .click();
      const download = await saving;
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^kpi-id-${demoUsers.student.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
      );
      const file = await download.path();
      const { readFile } = await import("node:fs/promises");
      const data = JSON.parse(await readFile(file, "utf8"));
      expect(data.profile.username).toBe(demoUsers.student.username);
      expect(data.labels.profile).toEqual({ uk: "Профіль", en: "Profile" });
      await expectNoAxeViolations(page, `account page with the data section (${language})`);
    });

    test("see and end another session: that browser is signed out at once; then all others", async ({
      page,
      browser,
      accountPage,
      enAccountPage,
    }) => {
      const account = pick(accountPage, enAccountPage);
      const phone = await otherDevice(browser, language, demoUsers.newcomer);
      const laptop = await otherDevice(browser, language, demoUsers.newcomer, firefoxOnLinux);
      // Signed in last, so "all others" below falls within the recent sign-in it needs.
      await signInThroughApi(page, language, demoUsers.newcomer);
      await account.goto();
      await expect(account.sessionsOf("Firefox 115")).toHaveCount(1);
      const phoneRow = account.sessionsOf("Firefox 128");
      await expect(phoneRow).toContainText("Android 14");
      await account.endSession(phoneRow).click();
      await expect(account.sessionsOf("Firefox 128")).toHaveCount(0);
      await expectSignedOut(phone, language);

      await account.endOthers.click();
      await expect(account.sessionRows).toHaveCount(1);
      await expect(account.currentSession()).toHaveCount(1);
      await expectSignedOut(laptop, language);
      await phone.context().close();
      await laptop.context().close();
    });

    test("a stale sign-in is asked to prove it again (password), and the change then goes through", async ({
      page,
      browser,
      accountPage,
      enAccountPage,
    }) => {
      const account = pick(accountPage, enAccountPage);
      await signInThroughApi(page, language, demoUsers.newcomer);
      // The sign-in goes stale while the page is open: the server's clock moves past its limit.
      await withServerClockAdvanced(page, reauthMaxAgeSeconds + 1, async () => {
        const laptop = await otherDevice(browser, language, demoUsers.newcomer);
        await account.goto();
        await account.endOthers.click();
        await expect(account.reauthDialog).toBeVisible();
        await expectNoAxeViolations(page, `re-authentication dialog (${language})`);
        await account.confirmWithPassword("wrong password");
        await expect(account.reauthDialog.getByRole("alert")).toBeVisible();
        await account.confirmWithPassword(demoUsers.newcomer.password);
        await expect(account.reauthDialog).toBeHidden();
        await expect(account.sessionRows).toHaveCount(1);
        await expect(page).toHaveURL(account.url());
        await expectSignedOut(laptop, language);
        await laptop.context().close();
      });
    });

    test("link Google through Google's own screen, then unlink it", async ({ page, accountPage, enAccountPage }) => {
      const account = pick(accountPage, enAccountPage);
      await signInThroughApi(page, language, demoUsers.newcomer);
      await account.goto();
      await account.linkGoogle.click();
      // The stand-in's account without a campus account: only linking can tie it to this person.
      await new GoogleStandInPage(page).choose("stranger");
      await expect(page).toHaveURL(new RegExp(`/${language}/account\\?google_link=linked$`));
      await expect(account.googleLinkOutcome).toBeVisible();
      await expect(account.googleLinked()).toBeVisible();
      await expectNoAxeViolations(page, `account page, Google linked (${language})`);

      await account.unlinkGoogle.click();
      await expect(account.linkGoogle).toBeVisible();
      await expect(account.googleLinked()).toHaveCount(0);
    });
  });
}
