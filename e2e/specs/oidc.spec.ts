import type { Server } from "node:http";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { startDemoRelyingParty } from "../tools/oidc-relying-party.ts";
import { photograph, photographNow } from "../tools/photographs.ts";

test.describe("OpenID Connect", () => {
  let rp: { url: string; server: Server };

  test.beforeEach(async ({ page, baseURL }) => {
    rp = await startDemoRelyingParty(page, baseURL ?? "");
  });
  test.afterEach(() => {
    rp?.server.close();
  });

  test("a relying party built with openid-client signs a person in through the KPI ID screens, refreshes, and signs out", async ({
    page,
    baseURL,
    consentPage,
  }) => {
    await page.goto(`${rp.url}/oidc/rp-login`);

    // No KPI ID session yet: our own sign-in screen, remembering the application's request.
    await expect(page).toHaveURL(`${baseURL}/uk/`);
    // The page names the application the sign-in continues to, reviewed (issue 60).
    await expect(page.getByTestId("signing-in-to-title")).toHaveText("Демо-сайт інтегратора");
    await expect(page.getByTestId("signing-in-to-stage")).toHaveAttribute("data-stage", "reviewed");
    await photograph(page, test.info(), "signing-in-to-oidc-reviewed-uk");
    const loginPage = new LoginPage(page, "uk");
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);

    // The demo site is not first-party: the consent screen lists what it asks for, in Ukrainian.
    await consentPage.waitFor(baseURL ?? "");
    await expect(consentPage.heading("Демо-сайт інтегратора")).toBeVisible();
    await expect(consentPage.scopes).toContainText("Прізвище та ім'я");
    await expect(consentPage.scopes).toContainText("Адреса електронної пошти");
    await expect(consentPage.scopes).not.toContainText("РНОКПП");
    await photographNow(page, test.info(), "consent");
    await expectNoAxeViolations(page, "the consent screen");
    await consentPage.allow.click();

    // Back at the relying party: tokens exchanged, ID token verified against the JWKS, userinfo read.
    await page.waitForURL(new RegExp(`^${rp.url}/oidc/callback\\?`));
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
    await expect(page.getByTestId("rp-given-name")).toHaveText("Олена");
    await expect(page.getByTestId("rp-family-name")).toHaveText("Коваленко");
    await expect(page.getByTestId("rp-student-id")).toHaveText("KV-2431");
    await expect(page.getByTestId("rp-amr")).toHaveText("pwd");
    await expect(page.getByTestId("rp-sub")).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(page.getByTestId("rp-refresh-rotated")).toHaveText("yes");
    await expect(page.getByTestId("rp-refresh-concurrent")).toHaveText("accepted");

    // RP-initiated logout: KPI ID asks, then ends its own session and returns to the application.
    await page.getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/oidc/session/end`));
    await photographNow(page, test.info(), "logout");
    await expectNoAxeViolations(page, "the sign-out confirmation");
    await page.getByRole("button", { name: "Так, вийти" }).click();
    await page.waitForURL(`${rp.url}/oidc/signed-out`);
    await expect(page.getByTestId("rp-signed-out")).toBeVisible();

    await page.goto(`${baseURL}/uk/apps`);
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/uk/$`));
  });

  test("with a KPI ID session the sign-in needs no password, and Deny returns access_denied to the application", async ({
    page,
    baseURL,
    consentPage,
  }) => {
    const loginPage = new LoginPage(page, "uk");
    await loginPage.goto();
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);
    await page.waitForURL(/\/uk\/apps/);

    await page.goto(`${rp.url}/oidc/rp-login`);
    await consentPage.waitFor(baseURL ?? "");
    await consentPage.deny.click();
    await page.waitForURL(new RegExp(`^${rp.url}/oidc/callback\\?`));
    await expect(page.getByTestId("rp-error")).toHaveText("access_denied");
  });

  test("a person without access to the application sees KPI ID's own page saying so and who to ask", async ({
    page,
    baseURL,
  }) => {
    // The newcomer has no applications, the demo site among them.
    await page.goto(`${rp.url}/oidc/rp-login`);
    await new LoginPage(page, "uk").signIn(demoUsers.newcomer.username, demoUsers.newcomer.password);
    const noAccess = page.getByTestId("no-access");
    await expect(noAccess).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/uk/consent\\?uid=`));
    await expect(noAccess.getByRole("heading")).toContainText("У вас немає доступу");
    await expect(noAccess.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    await expectNoAxeViolations(page, "no access to an application");
    await noAccess.getByRole("button", { name: "Повернутися до застосунку" }).click();
    await page.waitForURL(new RegExp(`^${rp.url}/oidc/callback\\?`));
    await expect(page.getByTestId("rp-error")).toHaveText("access_denied");
  });
});

test.describe("OpenID Connect on the demo site", () => {
  test("the demo third-party site signs in with OpenID Connect as well as with the ticket, and signs out", async ({
    page,
    baseURL,
    consentPage,
    demoSitePage,
  }) => {
    // Another demo person than above: the student's earlier consent would be remembered.
    const person = { username: "both", password: "both-demo-2026", fullName: "Ірина Шевченко" };
    await demoSitePage.goto();
    await demoSitePage.oidcButton.click();
    await expect(page).toHaveURL(`${baseURL}/uk/`);
    await new LoginPage(page, "uk").signIn(person.username, person.password);
    await consentPage.waitFor(baseURL ?? "");
    await consentPage.allow.click();

    await demoSitePage.waitForOidcCallback();
    await expect(demoSitePage.signedInName).toHaveText(person.fullName);
    await photographNow(page, test.info(), "demo-site");

    await demoSitePage.signOut.click();
    await page.getByRole("button", { name: "Так, вийти" }).click();
    await page.waitForURL(`${DemoSitePage.origin()}/oidc/signed-out`);
    await expect(demoSitePage.signedOut).toBeVisible();
  });
});
