import { expect, test } from "@playwright/test";
import { LoginPage } from "../pages/login-page.ts";
import { MailInboxPage } from "../pages/mail-inbox-page.ts";

// A member of staff (the demo "both" holds a position) sponsors a guest; the guest accepts from the mail
// stand-in's link and is led to set up their second factor. Both languages, 390 and 1280 px.
const sponsor = { username: "both", password: "both-demo-2026" };
const subjects = { uk: "Запрошення до KPI ID", en: "Invitation to KPI ID" } as const;
const shots = process.env.GUEST_SHOTS_DIR;

for (const language of ["uk", "en"] as const) {
  for (const width of [390, 1280]) {
    test(`a sponsor invites a guest who accepts and is led to a second factor (${language}, ${width} px)`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await new LoginPage(page, language).goto();
      await new LoginPage(page, language).signIn(sponsor.username, sponsor.password);
      await page.waitForURL(/\/(uk|en)\/apps/);
      await page.goto(`/${language}/account#guests`);
      const form = page.getByTestId("guest-invite-form");
      await expect(form).toBeVisible();
      const email = `guest-${language}-${width}-${Date.now()}@example.org`;
      await form.locator("#guest-name").fill("Jane Visitor");
      await form.locator("#guest-email-new").fill(email);
      const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      await form.locator("#guest-ends").fill(lastDay);
      await form.locator("#guest-reason").fill("Visiting researcher");
      await form.locator("#guest-language").selectOption(language);
      if (shots) await page.screenshot({ path: `${shots}/sponsor-form-${language}-${width}.png`, fullPage: true });
      await form.getByRole("button").last().click();
      await expect(page.getByTestId("guest-row").filter({ hasText: email })).toBeVisible();
      if (shots) await page.screenshot({ path: `${shots}/sponsor-list-${language}-${width}.png`, fullPage: true });

      const inbox = new MailInboxPage(await context.newPage());
      const text = await inbox.open(email, subjects[language]);
      const link = /https?:\/\/\S+\/guest#token=[\w-]+/.exec(text)?.[0] ?? "";
      expect(link).not.toBe("");
      const guest = await browser.newContext({ viewport: { width, height: 900 } });
      const guestPage = await guest.newPage();
      await guestPage.goto(link);
      await expect(guestPage.getByTestId("guest-invitation-for")).toContainText("Jane Visitor");
      await guestPage.locator("#guest-email").fill(email);
      await guestPage.locator("input[type=password]").first().fill("a quiet courtyard in kyiv at dusk");
      if (shots) await guestPage.screenshot({ path: `${shots}/accept-${language}-${width}.png`, fullPage: true });
      await guestPage
        .getByRole("button", { name: language === "uk" ? "Прийняти й продовжити" : "Accept and continue" })
        .click();
      await guestPage.waitForURL(/\/account#second-factor/);
      if (shots)
        await guestPage.screenshot({ path: `${shots}/guest-second-factor-${language}-${width}.png`, fullPage: true });
      // The link works once.
      await guestPage.goto(link);
      await expect(guestPage.getByTestId("guest-link-invalid")).toBeVisible();
      await guest.close();
      await context.close();
    });
  }
}
