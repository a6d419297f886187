import { expect, test } from "../fixtures.ts";

test.describe("routes and languages", () => {
  test("'/' redirects to the Ukrainian login keeping the query string", async ({ page, loginPage }) => {
    await page.goto("/?appId=abc");
    await expect(page).toHaveURL(/\/uk\/\?appId=abc$/);
    await expect(loginPage.username).toBeVisible();
  });

  test("a page without language gets one; an unknown path goes home", async ({ page }) => {
    expect((await page.goto("/faq?x=1"))?.status()).toBe(200);
    await expect(page).toHaveURL(/\/uk\/faq\?x=1$/);
    expect((await page.goto("/no-such-thing/at-all"))?.status()).toBe(404);
    await expect(page).toHaveURL(/\/uk\/$/);
  });

  test("an unknown page under a language shows not-found", async ({ page }) => {
    // The server says so too, for crawlers, monitors and bookmarks.
    expect((await page.goto("/en/no-such-page"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("the language switch swaps the segment and reloads", async ({ page, enLoginPage }) => {
    await page.goto("/uk/faq");
    await page.getByTestId("language-switch").click();
    await expect(page).toHaveURL(/\/en\/faq$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Questions and answers");
    // The choice is remembered: '/' now leads to English.
    await page.goto("/");
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(enLoginPage.submit).toBeVisible();
  });

  test("BankID's return page is a page of the app: without a language it gets one, the answer goes along", async ({
    page,
  }) => {
    // Held at the server's door, so the walk sees where the page hands the answer on.
    await page.route("**/bankid/auth?*", (route) => route.fulfill({ status: 204 }));
    const handed = page.waitForRequest((request) => request.url().includes("/bankid/auth?"));
    expect((await page.goto("/bankid-auth?code=c1&state=s1"))?.status()).toBe(200);
    await expect(page).toHaveURL(/\/uk\/bankid-auth\?code=c1&state=s1$/);
    // With the page's language, so a refusal comes back in it (473534f).
    expect(new URL((await handed).url()).search).toBe("?code=c1&state=s1&lang=uk");
  });

  test("the protected apps screen sends an anonymous visitor to the login", async ({ page, loginPage }) => {
    await page.goto("/uk/apps");
    await expect(page).toHaveURL(/\/uk\/$/);
    await expect(loginPage.username).toBeVisible();
  });
});
