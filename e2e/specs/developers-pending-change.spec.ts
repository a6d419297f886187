import type { Browser, Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { ChangeReviewPage, OwnerChangePage } from "../pages/pending-change-page.ts";
import { signedInOnApps } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";

/** A JSON POST from the page, as the web app sends it (same origin, the session's cookie). */
async function postFrom<T>(page: Page, path: string, body: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ([url, json]) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      return { status: response.status, body: await response.json() };
    },
    [path, body] as const,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as T;
}

/** The demo employee (console admin) signed in with Diia in a browser of their own, on the console. */
async function operatorConsole(browser: Browser, language: "uk" | "en") {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console = new ConsolePage(page, language);
  await console.signInWithDiiaThroughApi("employee");
  return { context, page };
}

/**
 * Issue 56: what the review approved is what runs. The owner of a live application renames it; the live name stays
 * until the operator, reading the difference in the console's queue, approves; a second rename is rejected and the
 * owner reads why, while the approved name keeps running.
 */
for (const language of ["uk", "en"] as const) {
  test.describe(`a live application's pending change (${language})`, () => {
    test("an owner renames a live application, the operator approves the difference, a second rename is rejected", async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(240_000);
      const stamp = Date.now().toString(36);
      const original = language === "en" ? `Library ${stamp}` : `Бібліотека ${stamp}`;
      const renamed = language === "en" ? `Library catalogue ${stamp}` : `Каталог бібліотеки ${stamp}`;
      const refused = language === "en" ? `Campus library ${stamp}` : `Бібліотека кампусу ${stamp}`;
      const reason = language === "en" ? "The name suggests an official service" : "Назва видає себе за офіційну";
      const cleanups: (() => unknown)[] = [];
      try {
        // A live application: registered and sent for review by the student, approved by the operator.
        // On a page of the service: the API calls below are the page's own (postFrom).
        await signedInOnApps(page, language, demoUsers.student);
        const created = await postFrom<{ application: { id: string } }>(page, "/api/developers/applications", {
          title: language === "en" ? `Бібліотека ${stamp}` : original,
          titleEn: language === "en" ? original : `Library ${stamp}`,
          callbackUrls: ["https://library.example.org/kpi-id/callback"],
        });
        const appId = created.application.id;
        await postFrom(page, `/api/developers/applications/${appId}/review`, {
          purpose: "The faculty library's catalogue and book orders.",
          dataNeeded: "The name, to put it on each order of books.",
        });
        const operator = await operatorConsole(browser, language);
        cleanups.push(() => operator.context.close());
        const queue = new ChangeReviewPage(operator.page, language);
        const approveReview = async () => {
          const waiting = await operator.page.evaluate(async () => (await fetch("/api/admin/reviews")).json());
          const request = (waiting.reviews as { applicationId: string; requestId: string }[]).find(
            (each) => each.applicationId === appId,
          );
          await postFrom(operator.page, `/api/admin/reviews/${appId}`, {
            decision: "approved",
            requestId: request?.requestId,
          });
        };
        await approveReview();
        // Live with the default rules, it would be on every demo person's apps screen for the other specs.
        cleanups.push(() =>
          postFrom(operator.page, `/api/admin/applications/${appId}/suspension`, {
            suspended: true,
            reason: "End of the pending change walk",
          }),
        );

        // The owner renames it: the change waits, the page shows it old → new, the live name stays.
        const owner = new OwnerChangePage(page, language);
        await owner.goto(appId);
        await owner.rename(renamed);
        await expect(owner.heading).toHaveText(original);
        await expectNoAxeViolations(page, "an application with a pending change");
        await photograph(page, testInfo, `developers-pending-change-${language}`);
        const apps = new AppsPage(page, language);
        await apps.goto();
        await expect(apps.cards.filter({ hasText: original })).toHaveCount(1);
        await expect(apps.cards.filter({ hasText: renamed })).toHaveCount(0);

        // The operator reads the difference in the queue and approves exactly it.
        await queue.goto();
        const field = language === "en" ? "titleEn" : "title";
        await expect(queue.difference(original, field)).toContainText(original);
        await expect(queue.difference(original, field).getByTestId("field-change-after")).toContainText(renamed);
        await expectNoAxeViolations(operator.page, "a change in the review queue");
        await photograph(operator.page, testInfo, `console-change-${language}`);
        await queue.approve(original);

        // The new name is what runs: on the apps page and the owner's page.
        await apps.goto();
        await expect(apps.cards.filter({ hasText: renamed })).toHaveCount(1);
        await owner.goto(appId);
        await expect(owner.heading).toHaveText(renamed);
        await expect(owner.pending).toHaveCount(0);

        // A second rename is rejected: the approved name stays, the owner reads the reason.
        await owner.rename(refused);
        await queue.goto();
        await queue.reject(renamed, reason);
        await owner.goto(appId);
        await expect(owner.heading).toHaveText(renamed);
        await expect(owner.rejected).toContainText(reason);
        await expectNoAxeViolations(page, "a rejected change");
        await photograph(page, testInfo, `developers-change-rejected-${language}`);
        await apps.goto();
        await expect(apps.cards.filter({ hasText: renamed })).toHaveCount(1);
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    });
  });
}
