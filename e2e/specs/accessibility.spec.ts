import { demoUsers, expect, expectNoAxeViolations, signInWithPassword, test } from "../fixtures.ts";

const publicScreens = [
  "/",
  "/?google_auth_error=true",
  "/faq",
  "/privacy-policy",
  "/terms-of-use",
  "/auth-success",
  "/diia",
  "/forgot-password",
  "/forgot-password?via=email",
  "/forgot-password?via=diia",
  "/reset-password#token=unknown",
  "/no-such-page",
];

for (const language of ["uk", "en"] as const) {
  for (const path of publicScreens) {
    test(`/${language}${path} passes axe`, async ({ page }) => {
      await page.goto(`/${language}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, `/${language}${path}`);
    });
  }
}

test("the apps screen and the My data dialog pass axe", async ({ loginPage, appsPage }) => {
  await signInWithPassword(loginPage, demoUsers.student);
  await expect(appsPage.cards.first()).toBeVisible();
  await expectNoAxeViolations(appsPage.page, "apps");
  await appsPage.myDataLink.click();
  await expect(appsPage.myData).toBeVisible();
  await expectNoAxeViolations(appsPage.page, "my data dialog");
});

test("the login screen with the invalid-credentials alert passes axe", async ({ loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn("student", "wrong");
  await expect(loginPage.invalidCredentials).toBeVisible();
  await expectNoAxeViolations(loginPage.page, "login alert");
});
