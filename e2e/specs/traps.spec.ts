import { demoUsers, expect, test } from "../fixtures.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { signedInOnApps } from "../tools/api-sign-in.ts";

test.describe("no traps", () => {
  test("Back after the appId redirect leaves for the site instead of redirecting again", async ({
    page,
    loginPage,
    demoSitePage,
  }) => {
    await demoSitePage.goto();
    await demoSitePage.ticketButton.click();
    await loginPage.username.waitFor();
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await demoSitePage.waitForTicketCallback();
    await expect(demoSitePage.signedInName).toBeVisible();
    // The login screen replaced itself with the apps list and the apps list with the app redirect:
    // one Back returns to the site's page with the button, not to /uk/apps?appId=….
    await page.goBack();
    await expect(page).toHaveURL(`${DemoSitePage.origin()}/`);
    await expect(demoSitePage.ticketButton).toBeVisible();
  });

  test("Back with the My data dialog open closes the dialog and stays on the page", async ({ page, appsPage }) => {
    await signedInOnApps(page, "uk", demoUsers.student);
    await appsPage.myDataLink.click();
    await expect(appsPage.myData).toBeVisible();
    await page.goBack();
    await expect(appsPage.myData).toBeHidden();
    await expect(page).toHaveURL(/\/uk\/apps$/);
    await expect(appsPage.myDataLink).toBeVisible();
    // Closing with the button steps back over the dialog's entry too: Back then leaves the page.
    await appsPage.myDataLink.click();
    await page.getByRole("button", { name: "Закрити" }).click();
    await expect(appsPage.myData).toBeHidden();
    await expect(page).toHaveURL(/\/uk\/apps$/);
  });

  test("while a password sign-in runs, the Diia and Google entries do nothing", async ({ page, loginPage }) => {
    await loginPage.goto();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth", async (route) => {
      await held;
      await route.continue();
    });
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await expect(loginPage.diiaLink).toHaveAttribute("aria-disabled", "true");
    await expect(loginPage.googleButton).toHaveAttribute("aria-disabled", "true");
    await loginPage.googleButton.click({ force: true });
    await loginPage.diiaLink.click({ force: true });
    await expect(page).toHaveURL(/\/uk\/$/);
    release();
    await page.waitForURL(/\/uk\/apps$/);
  });

  test("a page whose file is gone after a deploy reloads once, then says so in words", async ({ page }) => {
    await page.goto("/uk/");
    // Every lazy page file fails, as after a deploy that replaced them.
    await page.route(/\/assets\/content-pages-[\w-]+\.js$/, (route) => route.abort());
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    await page.getByRole("link", { name: "Питання та відповіді" }).click();
    await expect(page.getByRole("heading", { name: "Доступна нова версія KPI ID" })).toBeVisible();
    expect(loads).toBe(1);
    await expect(page.getByText(/dynamically imported module|Failed to fetch/)).toHaveCount(0);
  });
});
