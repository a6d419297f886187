import type { Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { ConnectedApplications } from "../pages/connected-applications.ts";
import { ConsentPage } from "../pages/consent-page.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { signedInOnApps } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";
import { postFrom } from "../tools/post-from.ts";
import { personBrowser } from "../tools/walk.ts";

/** A demo person with records the approved application's default rules let in (surfaces/seed/demo-data.ts). */
const outsider = { username: "both", password: "both-demo-2026", fullName: "Ірина Шевченко" } as const;

/**
 * The application's own site: its callback is answered here (no server of it runs), so the browser shows a page,
 * and the request that reaches it (with the ticket) is what the application would receive.
 */
async function applicationSite(page: Page, origin: string) {
  await page.route(`${origin}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>App</title><p>back</p>" }),
  );
  return (path: string) => page.waitForRequest((request) => request.url().startsWith(`${origin}${path}?`));
}

for (const language of ["uk", "en"] as const) {
  test.describe(`the consent screen on the ticket path (${language})`, () => {
    test("a community application gets a ticket only after the person agrees; another person refuses; the consent is listed and revoked", async ({
      page,
      browser,
      baseURL,
    }, testInfo) => {
      // Three people (one through the Diia phone), two pages photographed, four axe runs.
      test.setTimeout(300_000);
      const stamp = `${language}-${Date.now().toString(36)}`;
      const origin = `https://ticket-${stamp}.example.org`;
      const title = language === "en" ? `Timetable ${stamp}` : `Розклад ${stamp}`;
      const cleanups: (() => unknown)[] = [];
      try {
        // A student registers it on the developers' page (its API, as the page does), for tickets only, and asks
        // for a review; an operator approves it, so it is live and on the apps page of everyone the rules let in.
        // On a page of the service: the API calls below are the page's own (postFrom).
        await signedInOnApps(page, language, demoUsers.student);
        const registered = await postFrom(page, "/api/developers/applications", {
          title: `Розклад ${stamp}`,
          titleEn: `Timetable ${stamp}`,
          description: "Розклад занять групи",
          descriptionEn: "A group's timetable",
          homePageUrl: `${origin}/`,
          privacyPolicyUrl: `${origin}/privacy`,
          callbackUrls: [`${origin}/callback`],
          scopes: ["openid", "profile"],
        });
        expect(registered.status).toBe(200);
        const { application, secret } = registered.json as { application: { id: string }; secret: string };
        const appId = application.id;
        const review = await postFrom(page, `/api/developers/applications/${appId}/review`, {
          purpose: "A group's timetable, shown after signing in.",
          dataNeeded: "The name, to greet the student; the group, to pick the timetable.",
        });
        expect(review.status).toBe(200);
        const operatorContext = await browser.newContext();
        cleanups.push(() => operatorContext.close());
        const operatorPage = await operatorContext.newPage();
        await new ConsolePage(operatorPage, language).signInWithDiiaThroughApi("employee");
        // The operator approves the request the queue shows (a decision names what was read: issue 56, point 1).
        const queue = await operatorPage.evaluate(async () => (await fetch("/api/admin/reviews")).json());
        const { requestId } = (queue.reviews as { applicationId: string; requestId: string }[]).find(
          (each) => each.applicationId === appId,
        ) ?? { requestId: "" };
        const decision = { decision: "approved", requestId };
        expect((await postFrom(operatorPage, `/api/admin/reviews/${appId}`, decision)).status).toBe(200);
        // The other specs count the demo people's applications: suspended when this walk ends.
        cleanups.push(() =>
          postFrom(operatorPage, `/api/admin/applications/${appId}/suspension`, {
            suspended: true,
            reason: "End of the ticket consent walk",
          }),
        );

        // The student opens it from the apps page: the new tab shows the consent screen, not the application.
        const apps = new AppsPage(page, language);
        await apps.goto();
        const card = apps.cards.filter({ hasText: title });
        const [tab] = await Promise.all([page.context().waitForEvent("page"), card.click()]);
        const consent = new ConsentPage(tab, language);
        await consent.waitForTicket(baseURL ?? "");
        await expect(consent.heading(title)).toBeVisible();
        await expect(consent.reviewed).toBeVisible();
        await expect(consent.notReviewed).toHaveCount(0);
        await expect(consent.publisher).toContainText(demoUsers.student.fullName);
        await expect(consent.scopes).toBeVisible();
        await expectNoAxeViolations(tab, "the consent screen on the ticket path");
        await photograph(tab, testInfo, `ticket-consent-${language}`);

        // Allow: the browser lands on the application's callback with a ticket its server exchanges.
        const backAt = await applicationSite(tab, origin);
        const back = backAt("/callback");
        await consent.allow.click();
        const callback = new URL((await back).url());
        const ticketId = callback.searchParams.get("ticketId") ?? "";
        expect(ticketId).not.toBe("");
        const exchange = new URLSearchParams({ ticketId, appId, appSecret: secret });
        const answer = await fetch(`${baseURL}/api/ticket?${exchange}`);
        expect(answer.status).toBe(200);
        const ticket = (await answer.json()) as { data: { NAME: string; TAX_ID: string } };
        expect(ticket.data.NAME).toBe(demoUsers.student.fullName);
        expect(ticket.data.TAX_ID).toBe("");
        await tab.close();

        // Another person follows a link to it (the apps page's "open straight away"), sees the screen and refuses:
        // back on the apps page, and the application learns nothing.
        const other = await personBrowser(browser, language, outsider);
        cleanups.push(() => other.context.close());
        const otherConsent = new ConsentPage(other.page, language);
        const otherApps = new AppsPage(other.page, language);
        let reached = false;
        await other.page.route(`${origin}/**`, (route) => {
          reached = true;
          return route.fulfill({ status: 200, body: "" });
        });
        await otherApps.goto(`?appId=${appId}`);
        await otherConsent.waitForTicket(baseURL ?? "");
        await expect(otherConsent.heading(title)).toBeVisible();
        await otherConsent.deny.click();
        await other.page.waitForURL(otherApps.url());
        await expect(otherApps.heading).toBeVisible();
        expect(reached).toBe(false);

        // The student's account page lists the consent with what the tickets carry; revoking it asks again.
        const connected = new ConnectedApplications(page, language);
        await connected.goto();
        await expect(connected.ticketData(title)).toBeVisible();
        await expect(connected.ticketDataHeading(title)).toBeVisible();
        await expectNoAxeViolations(page, "the account page's connected applications");
        await connected.section.scrollIntoViewIfNeeded();
        await photograph(page, testInfo, `account-applications-${language}`);
        await connected.revoke(title);
        await expect(connected.row(title)).toHaveCount(0);
        await page.goto(`/api/app-redirect?appId=${appId}`);
        await new ConsentPage(page, language).waitForTicket(baseURL ?? "");
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    });
  });
}
