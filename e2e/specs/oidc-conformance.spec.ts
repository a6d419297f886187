import type { Server } from "node:http";
import { demoUsers, expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { startDemoRelyingParty } from "../tools/oidc-relying-party.ts";

/**
 * Issue 13: what the OpenID Foundation's conformance suite checks in a browser, with a
 * relying party built on openid-client and KPI ID's real screens in Chromium.
 */
test.describe("OpenID Connect conformance in the browser", () => {
  let rp: { url: string; server: Server };

  test.beforeEach(async ({ page, baseURL }) => {
    rp = await startDemoRelyingParty(page, baseURL ?? "");
  });
  test.afterEach(() => {
    rp?.server.close();
  });

  async function signInThroughApplication(page: LoginPage["page"], query: string) {
    await page.goto(`${rp.url}/oidc/rp-login?${query}`);
    await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
    await page.getByRole("button", { name: "Дозволити" }).click();
  }

  test("response_mode=form_post: the provider's auto-submitting page runs under its CSP and posts the code to the application", async ({
    page,
  }) => {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await signInThroughApplication(page, "response_mode=form_post");
    // The form posts to the registered redirect URI (on the demo site's origin, re-aimed at the RP).
    await page.waitForURL(/\/oidc\/callback$/);
    await expect(page.getByTestId("rp-response-mode")).toHaveText("form_post");
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
    expect(blocked).toEqual([]);
  });

  test("RP-initiated logout after the person already signed out of KPI ID reaches the registered post-logout address", async ({
    page,
  }) => {
    await signInThroughApplication(page, "");
    await page.waitForURL(new RegExp(`^${rp.url}/oidc/callback\\?`));
    // Signing out on KPI ID's own screen ends the provider session too.
    const apps = new AppsPage(page, "uk");
    await apps.goto();
    await apps.logout.click();
    await expect(page).toHaveURL(/\/uk\/$/);

    await page.goto(`${rp.url}/oidc/rp-logout`);
    await page.waitForURL(`${rp.url}/oidc/signed-out`);
    await expect(page.getByTestId("rp-signed-out")).toBeVisible();
  });
});
