import { demoUsers, expect, test } from "../fixtures.ts";
import { DiiaPhonePage } from "../pages/diia-phone-page.ts";
import { LoginPage } from "../pages/login-page.ts";

// A helpdesk link to a person's page, opened in a browser that is not signed in yet.
for (const language of ["uk", "en"] as const) {
  test(`a console page opened while signed out comes back after the sign-in (${language})`, async ({ page }) => {
    await page.goto(`/${language}/admin/applications`);
    await expect(page).toHaveURL(new RegExp(`/${language}/\\?returnTo=%2F${language}%2Fadmin%2Fapplications$`));
    // An operator (the demo employee is an admin) signing in with a password.
    await new LoginPage(page, language).signIn("employee", "employee-demo-2026");
    await expect(page).toHaveURL(new RegExp(`/${language}/admin/applications$`));
    // A password alone is not enough for the console: it asks for a strong sign-in, on the same page.
    await expect(page.getByTestId("console-step-up")).toBeVisible();
    // Diia's step-up works for the person already signed in (issue 60): the Diia page stays, then comes back here.
    const appLink = page.waitForResponse((response) => response.url().includes("/api/diia/app-link"));
    await page.getByTestId("console-step-up-diia").click();
    await expect(page).toHaveURL(new RegExp(`/${language}/diia\\?`));
    const { deepLink } = (await (await appLink).json()) as { deepLink: string };
    const phone = new DiiaPhonePage(await page.context().newPage());
    await phone.open(deepLink);
    await phone.signAs("employee");
    await phone.page.close();
    await expect(page).toHaveURL(new RegExp(`/${language}/admin/applications$`));
    await expect(page.getByTestId("console-step-up")).toHaveCount(0);
  });
}

test("an operator's apps screen links to the console; a student's does not (issue 37)", async ({ page, browser }) => {
  const loginPage = new LoginPage(page, "en");
  await loginPage.goto();
  await loginPage.signIn("employee", "employee-demo-2026");
  await page.getByTestId("console-link").click();
  await expect(page).toHaveURL(/\/en\/admin$/);
  const student = await (await browser.newContext()).newPage();
  const studentLogin = new LoginPage(student, "uk");
  await studentLogin.goto();
  await studentLogin.signIn(demoUsers.student.username, demoUsers.student.password);
  await expect(student).toHaveURL(/\/uk\/apps/);
  await expect(student.getByTestId("app-card").first()).toBeVisible();
  await expect(student.getByTestId("console-link")).toHaveCount(0);
  await student.context().close();
});

test("a returnTo that names another site is ignored: the sign-in ends on the apps list", async ({ page }) => {
  await page.goto(`/uk/?returnTo=${encodeURIComponent("//evil.example/uk/admin")}`);
  await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
  await expect(page).toHaveURL(/\/uk\/apps/);
});
