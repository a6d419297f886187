import { generate } from "otplib";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { GuestInvitationPage, SponsorGuestsCard } from "../pages/guest-pages.ts";
import { LoginPage } from "../pages/login-page.ts";
import { MailInboxPage } from "../pages/mail-inbox-page.ts";
import { SecondFactorPage } from "../pages/second-factor-page.ts";
import { letAffiliatesInto } from "../tools/affiliate-access.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";
import { withServerClockAdvanced } from "../tools/server-clock.ts";

// A member of staff (the demo "both" holds a position) sponsors a guest; the guest accepts from the mail stand-in's
// link, sets up an authenticator app, opens the application the operators let affiliates into, and is disabled by
// the guests' job once their last day has passed. Each language walks the whole way at one width (uk at 390 px, en at
// 1280 px); every screen on the way is photographed at both widths.
const sponsor = { username: "both", password: "both-demo-2026" };
const subjects = { uk: "Запрошення до KPI ID", en: "Invitation to KPI ID" } as const;
const campus = { uk: /Електронний кампус/, en: /Electronic campus/ } as const;
const guestPassword = "a quiet courtyard in kyiv at dusk";
const dayMs = 86_400_000;
const totpStepMs = 30_000;
const currentTotpStep = () => Math.floor(Date.now() / totpStepMs);

/** Waits until the authenticator shows a code of a later time step than `step` (at most 30 s). */
async function waitForTotpStepAfter(step: number): Promise<void> {
  const left = (step + 1) * totpStepMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left + 500));
}

const walks = [
  { language: "uk", width: 390 },
  { language: "en", width: 1280 },
] as const;

test.beforeAll(async ({ browser }) => {
  await letAffiliatesInto(browser, "campus");
});

for (const { language, width } of walks) {
  test(`a sponsored guest accepts, sets up a second factor, opens an application and is disabled at the end (${language}, ${width} px)`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const cleanups: (() => Promise<unknown>)[] = [];
    try {
      // The sponsor invites the guest, their last day tomorrow.
      const sponsorContext = await browser.newContext({ viewport: { width, height: 900 } });
      cleanups.push(() => sponsorContext.close());
      const page = await sponsorContext.newPage();
      await signInThroughApi(page, language, sponsor);
      const card = new SponsorGuestsCard(page, language);
      await card.goto();
      await expect(card.form).toBeVisible();
      const email = `guest-${language}-${width}-${Date.now()}@example.org`;
      // Tomorrow on the campus's calendar (Kyiv): the form's earliest day. Tomorrow in UTC is today in Kyiv from
      // 22:00 UTC, and the browser then refuses the date before the form sends anything.
      const lastDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Kyiv" }).format(
        new Date(Date.now() + dayMs),
      );
      await card.fill({
        fullName: "Jane Visitor",
        email,
        lastDay,
        reason: "Visiting researcher",
        application: campus[language],
      });
      await photograph(page, testInfo, `sponsor-form-${language}`, { backTo: width });
      await card.send();
      await expect(card.row(email)).toBeVisible();
      await photograph(page, testInfo, `sponsor-list-${language}`, { backTo: width });

      // The guest accepts with the mailed link and a password.
      const inbox = new MailInboxPage(await sponsorContext.newPage());
      const link = GuestInvitationPage.linkIn(await inbox.open(email, subjects[language]));
      expect(link).not.toBe("");
      const guestContext = await browser.newContext({ viewport: { width, height: 900 } });
      cleanups.push(() => guestContext.close());
      const guestPage = await guestContext.newPage();
      const invitation = new GuestInvitationPage(guestPage, language);
      await guestPage.goto(link);
      await expect(invitation.invitedName).toContainText("Jane Visitor");
      await invitation.email.fill(email);
      await invitation.password.fill(guestPassword);
      await photograph(guestPage, testInfo, `guest-accept-${language}`, { backTo: width });
      await invitation.accept.click();
      await guestPage.waitForURL(/\/account#second-factor/);

      // A guest's account always needs a second factor: an authenticator app. The card above it tells the username.
      const factor = new SecondFactorPage(guestPage, language);
      await photograph(guestPage, testInfo, `guest-second-factor-${language}`, { backTo: width });
      await factor.setUp.click();
      const secret = (await factor.secret.textContent()) ?? "";
      await factor.firstCode.fill(await generate({ secret }));
      const firstCodeStep = currentTotpStep();
      await factor.turnOn.click();
      await expect(factor.recoveryCodes).toHaveCount(10);
      await factor.saved.click();
      await expect(factor.state).toContainText("10");
      const username = ((await guestPage.getByTestId("sign-in-username").textContent()) ?? "").trim();
      expect(username).toMatch(/^guest\./);
      await guestPage.getByTestId("method-password").scrollIntoViewIfNeeded();
      await photograph(guestPage, testInfo, `guest-methods-${language}`, { backTo: width });

      // The guest opens the application the operators let affiliates into, from the apps page. A factor set up inside
      // a session proves nothing about who signed in: the application's second-factor requirement asks them to sign
      // in with the password and the authenticator's code.
      const apps = new AppsPage(guestPage, language);
      await apps.goto();
      const application = apps.cards.filter({ hasText: campus[language] });
      await expect(application).toBeVisible();
      await photograph(guestPage, testInfo, `guest-apps-${language}`, { backTo: width });
      const [tab] = await Promise.all([guestContext.waitForEvent("page"), application.click()]);
      const login = new LoginPage(tab, language);
      await login.username.waitFor();
      await photograph(tab, testInfo, `guest-app-sign-in-${language}`, { backTo: width });
      await login.signIn(username, guestPassword);
      const prompt = new SecondFactorPage(tab, language);
      await expect(prompt.prompt).toBeVisible();
      // A code is taken once: the sign-in's is the authenticator's next one.
      await waitForTotpStepAfter(firstCodeStep);
      await prompt.promptCode.fill(await generate({ secret }));
      await prompt.promptSubmit.click();
      await tab.waitForURL(new RegExp(`^${DemoSitePage.origin()}/campus/callback\\?ticketId=`));
      await expect(new DemoSitePage(tab).signedInName).toHaveText("Jane Visitor");
      await tab.close();

      // Past the last day, the guests' job (the one the clean-up runs) disables the guest.
      await withServerClockAdvanced(page, 2 * 24 * 3600, async () => {
        const origin = new URL(page.url()).origin;
        const job = await page.request.post(`${origin}/api/test/jobs/guests`, { data: {}, headers: { origin } });
        expect(job.ok()).toBe(true);
        expect(((await job.json()) as { ended: number }).ended).toBeGreaterThanOrEqual(1);
      });
      // Their session has ended: the account page sends them to sign in, which refuses them.
      await guestPage.goto(`/${language}/account`);
      const again = new LoginPage(guestPage, language);
      await again.username.waitFor();
      await again.signIn(username, guestPassword);
      await expect(again.invalidCredentials).toBeVisible();
      await photograph(guestPage, testInfo, `guest-ended-sign-in-${language}`, { backTo: width });
      // The sponsor sees the stay ended; the invitation link does nothing any more.
      // The sponsor's page is still at /account#guests: loaded again, not only scrolled to its card.
      await page.reload();
      await expect(card.row(email)).toContainText(card.endedWord());
      await photograph(page, testInfo, `sponsor-list-ended-${language}`, { backTo: width });
      await guestPage.goto(link);
      await expect(invitation.linkInvalid).toBeVisible();
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
  });
}
