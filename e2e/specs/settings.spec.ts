import { bootDataElementId } from "@kpi-id/contracts";
import type { Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";

/** The page as the server sends it, minus what it carries (settings, translations), with /api/settings failing. */
async function withoutSettings(page: Page): Promise<void> {
  await page.route(
    (url) => !url.pathname.includes("."),
    async (route) => {
      if (route.request().resourceType() !== "document") return route.fallback();
      const response = await route.fetch();
      const element = new RegExp(`<script type="application/json" id="${bootDataElementId}">.*?</script>`);
      return route.fulfill({ response, body: (await response.text()).replace(element, "") });
    },
  );
  await page.route("**/api/settings", (route) =>
    route.fulfill({ status: 503, json: { code: "service.database_unavailable", message: "unavailable" } }),
  );
}

test.describe("settings and translations come with the page", () => {
  test("the login screen shows Diia and Google without asking for settings or translation files", async ({
    page,
    loginPage,
  }) => {
    const late: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === "/api/settings" || pathname.startsWith("/locales/")) late.push(pathname);
    });
    await loginPage.goto();
    await expect(loginPage.diiaLink).toBeVisible();
    await expect(loginPage.googleButton).toBeVisible();
    expect(late).toEqual([]);
  });

  test("an anonymous visitor's login and Diia screens ask nothing of /user and log no error or issue", async ({
    page,
    loginPage,
    diiaQrPage,
  }) => {
    const userCalls: string[] = [];
    const consoleErrors: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/user") userCalls.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    // What Chromium reports in its Issues panel, which Lighthouse's best practices count (a CSP violation).
    const issues: string[] = [];
    const cdp = await page.context().newCDPSession(page);
    cdp.on("Audits.issueAdded", ({ issue }) => {
      if (issue.code !== "PerformanceIssue") issues.push(JSON.stringify(issue));
    });
    await cdp.send("Audits.enable");
    await loginPage.goto();
    await expect(loginPage.username).toBeVisible();
    await page.goto("/uk/diia");
    await expect(diiaQrPage.qr).toBeVisible();
    expect(userCalls).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(issues).toEqual([]);
  });

  test("when the settings cannot be read, each page says so and no link leads nowhere", async ({ page, loginPage }) => {
    await withoutSettings(page);
    await loginPage.goto();
    const unavailable = page.getByTestId("settings-unavailable");
    await expect(unavailable).toContainText("Вхід через Дію та Google зараз недоступний");
    await expect(loginPage.diiaLink).toHaveCount(0);
    await expect(loginPage.googleButton).toHaveCount(0);

    await page.goto("/en/faq");
    await expect(unavailable).toContainText("The support contacts are unavailable right now");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator('main a[href="#"], main a[href=""]')).toHaveCount(0);

    await page.goto("/uk/privacy-policy");
    await expect(unavailable).toContainText("Контакти підтримки зараз недоступні");
    await expect(page.locator('a[href^="mailto:"]')).toHaveCount(0);
  });

  test("a signed-in person's apps screen comes with who they are: no /user call, their apps at once", async ({
    page,
    appsPage,
  }) => {
    await signInThroughApi(page, "uk", demoUsers.student);
    const userCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/user") userCalls.push(request.url());
    });
    await page.goto("/en/apps");
    await expect(appsPage.heading).toBeVisible();
    await expect(appsPage.cards.first()).toBeVisible();
    await expect(page.getByText(demoUsers.student.fullName)).toBeVisible();
    expect(userCalls).toEqual([]);
  });
});
