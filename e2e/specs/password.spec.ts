import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, signInWithPassword, test } from "../fixtures.ts";
import { AccountPage } from "../pages/account-page.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { DiiaPhonePage } from "../pages/diia-phone-page.ts";
import { type Language, LoginPage } from "../pages/login-page.ts";
import { MailInboxPage } from "../pages/mail-inbox-page.ts";
import { ForgotPasswordPage, ResetPasswordPage } from "../pages/password-pages.ts";

/**
 * The demo person with a confirmed e-mail address (apps/server/src/surfaces/seed/demo-data.ts). These walks change
 * their password one after another, so they run in order and each starts from the one the last set;
 * no other spec signs `employee` in with a password.
 */
const person = { username: "employee", email: "andrii.melnyk@kpi.ua", fullName: "Андрій Мельник" };
let currentPassword = "employee-demo-2026";
test.describe.configure({ mode: "serial" });

const subjects = {
  uk: { changed: "Пароль KPI ID змінено", reset: "Відновлення пароля KPI ID" },
  en: { changed: "Your KPI ID password was changed", reset: "Reset your KPI ID password" },
} as const;

/** A passphrase nobody used before in this run: long, no name in it, so the blocklist lets it through. */
function newPassphrase(walk: string): string {
  return `${walk} violet harbour lantern ${Date.now() % 1_000_000}`;
}

async function otherBrowser(browser: Browser, language: Language): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInWithPassword(new LoginPage(page, language), { username: person.username, password: currentPassword });
  return page;
}

/** Signs this browser out from the apps screen's header. */
async function signOut(page: Page, language: Language) {
  const apps = new AppsPage(page, language);
  await apps.goto();
  await apps.logout.click();
  await expect(page).toHaveURL(new RegExp(`/${language}/?$`));
}

/** The new password signs the person in through the login screen. */
async function expectSignsIn(page: Page, language: Language, password: string) {
  await signInWithPassword(new LoginPage(page, language), { username: person.username, password });
  await expect(new AppsPage(page, language).heading).toContainText(person.fullName);
}

for (const language of ["uk", "en"] as const) {
  test.describe(`passwords and getting back in (${language})`, () => {
    test("change the password: a weak one is refused with the reason, the old one no longer signs in, the other browser is signed out, a mail says so", async ({
      page,
      browser,
    }) => {
      const account = new AccountPage(page, language);
      const inbox = new MailInboxPage(await page.context().newPage());
      const laptop = await otherBrowser(browser, language);
      await signInWithPassword(new LoginPage(page, language), { username: person.username, password: currentPassword });
      await account.goto();
      await account.changePassword.click();
      await account.newPassword.fill("password1");
      await expect(account.passwordForm.getByTestId("strength-meter")).toHaveAttribute("data-score", "0");
      await expectNoAxeViolations(page, `password form (${language})`);
      await account.submitPassword(currentPassword, "password1");
      await expect(account.passwordRefused).toBeVisible();

      const before = await inbox.count();
      const next = newPassphrase(`${language} change`);
      await account.submitPassword(currentPassword, next);
      await expect(account.passwordForm).toBeHidden();
      await expect(
        page.getByText(language === "uk" ? /^Пароль змінено\./ : /^The password is changed\./),
      ).toBeVisible();
      await expect(account.currentSession()).toHaveCount(1);
      await expect(account.sessionRows).toHaveCount(1);

      await laptop.goto(`/${language}/apps`);
      await expect(laptop).toHaveURL(new RegExp(`/${language}/?$`));
      await laptop.context().close();
      const notice = await inbox.open(person.email, subjects[language].changed, before);
      expect(notice).toContain(language === "uk" ? "Усі інші сеанси завершено." : "Every other session");

      const old = currentPassword;
      currentPassword = next;
      await signOut(page, language);
      const login = new LoginPage(page, language);
      await login.signIn(person.username, old);
      await expect(login.invalidCredentials).toBeVisible();
      await login.signIn(person.username, next);
      await expect(page).toHaveURL(new AppsPage(page, language).url());
    });

    test("forgot password by e-mail: the link from the inbox sets a new password once, and it signs in", async ({
      page,
    }) => {
      const forgot = new ForgotPasswordPage(page, language);
      const reset = new ResetPasswordPage(page, language);
      const inbox = new MailInboxPage(await page.context().newPage());
      await forgot.openFromLogin();
      await expectNoAxeViolations(page, `forgot password (${language})`);
      const before = await inbox.count();
      await forgot.askForLink(person.email.toUpperCase());
      await expectNoAxeViolations(page, `forgot password, link sent (${language})`);

      const link = MailInboxPage.resetLinkIn(await inbox.open(person.email, subjects[language].reset, before));
      expect(link).toContain(`/${language}/reset-password#token=`);
      await page.goto(link);
      await expect(reset.holder).toContainText(person.fullName);
      // The token left the address bar once the page read it.
      await expect(page).toHaveURL(new RegExp(`/${language}/reset-password$`));
      await reset.setPassword("employee2026");
      await expect(reset.refused).toBeVisible();
      await expectNoAxeViolations(page, `reset password (${language})`);
      const next = newPassphrase(`${language} mail`);
      await reset.setPassword(next);
      await expect(reset.done).toBeVisible();
      currentPassword = next;
      await reset.signIn.click();
      await expectSignsIn(page, language, next);

      // The link worked once.
      await page.goto(link);
      await expect(reset.linkInvalid).toBeVisible();
    });

    test("forgot password with Diia: the phone's signature finds the account and a new password is set", async ({
      page,
    }) => {
      const forgot = new ForgotPasswordPage(page, language);
      const reset = new ResetPasswordPage(page, language);
      await forgot.openFromLogin();
      const deepLink = await forgot.chooseDiia();
      const phone = new DiiaPhonePage(await page.context().newPage());
      await phone.open(deepLink);
      await phone.signAs("employee");
      await expect(phone.result).toHaveAttribute("data-outcome", "sent");
      await phone.page.close();

      await expect(page).toHaveURL(new RegExp(`/${language}/reset-password$`));
      await expect(reset.holder).toContainText(person.username);
      const next = newPassphrase(`${language} diia`);
      await reset.setPassword(next);
      await expect(reset.done).toBeVisible();
      currentPassword = next;
      await reset.signIn.click();
      await expectSignsIn(page, language, next);
    });
  });
}
