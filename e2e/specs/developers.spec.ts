import type { Browser, Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsentPage } from "../pages/consent-page.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { InvitationNotice } from "../pages/developers-invitations-page.ts";
import {
  ApplicationSuspension,
  DevelopersPage,
  type NewApplication,
  ReviewQueuePage,
} from "../pages/developers-page.ts";
import { closeToasts } from "../pages/toasts.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { signInThroughRedirect, startManualOidcSample } from "../tools/developer-client.ts";
import { photograph } from "../tools/photographs.ts";
import { personBrowser } from "../tools/walk.ts";

// The manual's oidc.mjs listens here (the specs' own ports are base + 6..8 and 13; see playwright.config.ts).
const samplePort = Number(process.env.E2E_PORT_BASE ?? 3300) + 13;
/** A demo person who is neither owner nor tester (apps/server/src/surfaces/seed/demo-data.ts). */
const outsider = { username: "both", password: "both-demo-2026", fullName: "Ірина Шевченко" } as const;
const liveRedirectUri = "https://vote.example.org/oidc/callback";

/** An operator (the demo employee, console admin) signed in with Diia in a browser of their own. */
async function operatorConsole(browser: Browser, language: "uk" | "en") {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console = new ConsolePage(page, language);
  await console.signInWithDiiaThroughApi("employee");
  return { context, page };
}

/**
 * Suspends the application through the console's own API as the operator: the other specs sign the demo people in
 * on this server, and a live application with the default rules would be on everyone's apps screen
 * (password-login.spec.ts counts the student's three).
 */
async function suspendForTheRestOfTheSuite(operatorPage: Page, appId: string): Promise<void> {
  const status = await operatorPage.evaluate(async (id) => {
    const response = await fetch(`/api/admin/applications/${id}/suspension`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ suspended: true, reason: "End of the developers' page walk" }),
    });
    return response.status;
  }, appId);
  expect(status).toBe(200);
}

const applicationOf = (language: "uk" | "en", stamp: string): NewApplication => ({
  title: `Голосування ${language} ${stamp}`,
  titleEn: `Vote ${language} ${stamp}`,
  description: "Вибори до студентської ради факультету",
  descriptionEn: "Elections to the faculty's student council",
  homePageUrl: "https://vote.example.org",
  privacyPolicyUrl: "https://vote.example.org/privacy",
  redirectUris: [liveRedirectUri, `http://localhost:${samplePort}/oidc/callback`],
});

for (const language of ["uk", "en"] as const) {
  test.describe(`the developers' page (${language})`, () => {
    test("a student registers an application and keeps the secret; a tester signs in to the manual's sample, another person is refused; reviewed, approved, live with its localhost address, that person signs in", async ({
      page,
      context,
      browser,
      baseURL,
    }, testInfo) => {
      // Five sign-ins (one through the Diia phone), four pages of photographs and eight axe runs.
      test.setTimeout(360_000);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
      const developers = new DevelopersPage(page, language);
      const application = applicationOf(language, Date.now().toString(36));
      const title = language === "en" ? application.titleEn : application.title;

      const cleanups: (() => unknown)[] = [];
      try {
        await signInThroughApi(page, language, demoUsers.student);
        await developers.goto();
        await expectNoAxeViolations(page, "the developers' page");
        await photograph(page, testInfo, `developers-${language}`);

        await developers.startNew();
        await developers.fill(application);
        await expectNoAxeViolations(page, "the new application's form");
        await photograph(page, testInfo, `developers-new-${language}`);

        // The secret is shown once, with the application's id; the copy button puts exactly it on the clipboard.
        const { appId, secret } = await developers.register();
        expect(appId).toMatch(/^[0-9a-f-]{36}$/);
        expect(secret.length).toBeGreaterThanOrEqual(32);
        expect(await developers.copySecret()).toBe(secret);
        await closeToasts(page);
        await expect(page.getByText(developers.text.copied)).toHaveCount(0);
        await expectNoAxeViolations(page, "the secret shown once");
        await photograph(page, testInfo, `developers-secret-${language}`);

        // In testing; the secret is never shown again.
        await developers.open(title);
        await expect(developers.lifecycle).toHaveText(developers.text.testing);
        await expect(page.getByText(secret)).toHaveCount(0);
        await developers.addTester(demoUsers.newcomer.username);

        // While in testing: the tester signs in to the manual's oidc.mjs run with this id and secret, on the
        // consent screen marked "not reviewed"; someone else is stopped with the page saying it is in testing.
        const issuer = `${baseURL}/oidc`;
        const sample = await startManualOidcSample({ language, issuer, appId, secret, port: samplePort });
        cleanups.push(sample.stop);
        const tester = await personBrowser(browser, language, demoUsers.newcomer);
        cleanups.push(() => tester.context.close());
        // A tester only once they accept the invitation (issue 56, developers-invitations.spec.ts).
        const invitation = new InvitationNotice(tester.page, language);
        await invitation.goto();
        await invitation.answer("tester", title, "accept");
        await tester.page.goto(`${sample.site}/`);
        await tester.page.getByRole("link", { name: "Sign in with KPI ID" }).click();
        const testerConsent = new ConsentPage(tester.page, language);
        await testerConsent.waitFor(baseURL ?? "");
        await expect(tester.page.getByTestId("consent-not-reviewed")).toBeVisible();
        await expectNoAxeViolations(tester.page, "the consent screen of an application in testing");
        await testerConsent.allow.click();
        await expect(tester.page.getByText(`Hello, ${demoUsers.newcomer.fullName}`)).toBeVisible();
        const outside = await personBrowser(browser, language, outsider);
        cleanups.push(() => outside.context.close());
        await outside.page.goto(`${sample.site}/`);
        await outside.page.getByRole("link", { name: "Sign in with KPI ID" }).click();
        await expect(outside.page.getByTestId("consent-in-testing")).toBeVisible();
        await expectNoAxeViolations(outside.page, "the in-testing page");
        await photograph(outside.page, testInfo, `in-testing-${language}`);
        const purpose = "Online elections to the faculty's student council, run by the council itself.";
        const dataNeeded =
          "The name, to show who voted; the study group, to hand each voter the ballot of their faculty.";
        // http://localhost is a development address (issue 60): it stays through review and after approval.
        await developers.requestReview(purpose, dataNeeded);
        await expect(developers.lifecycle).toHaveText(developers.text.inReview);
        await expectNoAxeViolations(page, "an application waiting for review");

        // The operator reads the request in the console's queue: a rejection without a reason is refused there.
        const operator = await operatorConsole(browser, language);
        cleanups.push(() => operator.context.close());
        {
          const queue = new ReviewQueuePage(operator.page, language);
          await queue.open();
          const request = queue.request(title);
          await expect(request).toContainText("Online elections to the faculty's student council");
          await expect(request).toContainText(liveRedirectUri);
          await expect(request).toContainText(demoUsers.student.username);
          await expectNoAxeViolations(operator.page, "the review queue");
          await photograph(operator.page, testInfo, `console-reviews-${language}`);
          await queue.rejectWithoutReason(title);
          await expectNoAxeViolations(operator.page, "a rejection without a reason");
          await queue.cancelRejection(title);
          await queue.approve(title);
        }
        cleanups.push(() => suspendForTheRestOfTheSuite(operator.page, appId));

        // The owner sees it live.
        await developers.gotoApplication(appId);
        await expect(developers.lifecycle).toHaveText(developers.text.live);
        await expect(page.getByText(developers.text.liveText)).toBeVisible();
        await expect(developers.reviewPending).toHaveCount(0);
        await expect(page.getByTestId("development-address")).toHaveText(developers.text.development);
        await photograph(page, testInfo, `developers-live-localhost-${language}`);

        // Live: the person refused while it was in testing signs in now, no longer warned it is not reviewed.
        const name = await signInThroughRedirect({
          page: outside.page,
          issuer,
          appId,
          secret,
          redirectUri: liveRedirectUri,
          whileThere: async () => {
            const consent = new ConsentPage(outside.page, language);
            await consent.waitFor(baseURL ?? "");
            await expect(consent.allow).toBeVisible();
            await expect(outside.page.getByTestId("consent-not-reviewed")).toHaveCount(0);
            await consent.allow.click();
          },
        });
        expect(name).toBe(outsider.fullName);

        // An operator suspends it from its console screen (after a confirmation) and resumes it; the owner sees both.
        const suspension = new ApplicationSuspension(operator.page, language);
        await suspension.open(appId);
        await suspension.change("suspend", "Reports of phishing through its sign-in page");
        await photograph(operator.page, testInfo, `console-suspension-${language}`);
        await developers.gotoApplication(appId);
        await expect(developers.lifecycle).toHaveText(developers.text.suspended);
        await suspension.change("resume");
        await developers.gotoApplication(appId);
        await expect(developers.lifecycle).toHaveText(developers.text.live);
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    });
  });
}
