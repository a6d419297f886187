import { demoUsers, expect, test } from "../fixtures.ts";
import { demoOidcCredentials } from "../tools/oidc-relying-party.ts";

test.describe("password sign-in against the real server", () => {
  test("the demo student signs in and reaches the apps screen", async ({ loginPage, appsPage, page }) => {
    await loginPage.goto();
    await expect(loginPage.submit).toBeDisabled();
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await expect(page).toHaveURL(appsPage.url());
    await expect(appsPage.heading).toHaveText(`Вітаємо, ${demoUsers.student.fullName}!`);
    await expect(appsPage.cards).toHaveCount(3);
    await expect(appsPage.cards.first()).toHaveAttribute("href", /^\/api\/app-redirect\?appId=/);

    // Signed in, the login screen sends the person straight back to the apps list.
    await page.goto("/uk/");
    await expect(page).toHaveURL(appsPage.url());
  });

  test("a wrong password shows the invalid-credentials alert and keeps the person on the login screen", async ({
    loginPage,
    page,
  }) => {
    await loginPage.goto();
    await loginPage.signIn(demoUsers.student.username, "not-the-password");
    await expect(loginPage.invalidCredentials).toBeVisible();
    await expect(page).toHaveURL(/\/uk\/$/);
    await expect(loginPage.username).toBeEnabled();
  });

  test("the apps screen lists nothing for a person without apps and logout returns to login", async ({
    loginPage,
    appsPage,
    page,
  }) => {
    await loginPage.goto();
    await loginPage.signIn(demoUsers.newcomer.username, demoUsers.newcomer.password);
    await expect(appsPage.noAppsError).toBeVisible();
    await appsPage.logout.click();
    await expect(page).toHaveURL(/\/uk\/$/);
    await expect(loginPage.username).toBeVisible();
  });

  test("an unknown appId is cleared from the URL and reported", async ({ loginPage, appsPage, page }) => {
    await loginPage.goto("?appId=00000000-0000-4000-8000-000000000000");
    // Issue 19: said before sign-in too.
    await expect(loginPage.appLinkError).toContainText("Невідомий сервіс");
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await expect(appsPage.redirectError).toBeVisible();
    await expect(page).toHaveURL(/\/uk\/apps$/);
  });

  test("an unregistered redirectUri is told before sign-in, and after it, signed in or not", async ({
    enLoginPage,
    enAppsPage,
    appsPage,
    page,
  }) => {
    // The demo site is on the student's list; it never registered this return address.
    const link = `?${new URLSearchParams({ appId: demoOidcCredentials().id, redirectUri: "https://evil.example/cb" })}`;
    await enLoginPage.goto(link);
    await expect(enLoginPage.appLinkError).toContainText("Unregistered return address");
    await enLoginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await expect(enAppsPage.redirectUriError).toContainText("Unregistered return address");
    await expect(page).toHaveURL(/\/en\/apps$/);
    await expect(enAppsPage.cards).toHaveCount(3);

    // Already signed in, the same link goes to the apps list with the notice, and nowhere else.
    await page.goto(`/uk/${link}`);
    await expect(appsPage.redirectUriError).toContainText("Незареєстрована адреса повернення");
    await expect(page).toHaveURL(/\/uk\/apps$/);
  });
});
