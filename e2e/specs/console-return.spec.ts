import { demoUsers, expect, test } from "../fixtures.ts";
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
  });
}

test("a returnTo that names another site is ignored: the sign-in ends on the apps list", async ({ page }) => {
  await page.goto(`/uk/?returnTo=${encodeURIComponent("//evil.example/uk/admin")}`);
  await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
  await expect(page).toHaveURL(/\/uk\/apps/);
});
