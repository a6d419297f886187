import type { Server } from "node:http";
import type { Browser, Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { LoginPage } from "../pages/login-page.ts";
import { startDemoRelyingParty } from "../tools/oidc-relying-party.ts";

/**
 * Issue 13, defects 2, 4 and 8 in Chromium: the provider follows each browser's KPI ID session
 * (prompt=none, prompt=login, auth_time), and each browser (device) has grants of its own.
 */
test.describe("OpenID Connect and KPI ID sessions in the browser", () => {
  const servers: Server[] = [];

  test.afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  /** A browser of its own (a device) with its own relying party. */
  async function device(browser: Browser, baseURL: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const rp = await startDemoRelyingParty(page, baseURL);
    servers.push(rp.server);
    return { page, rp };
  }

  /** Signs in through the application: the sign-in screen, then consent (by default with offline_access). */
  async function signInThroughApplication(page: Page, rpUrl: string, query = "") {
    await page.goto(`${rpUrl}/oidc/rp-login${query}`);
    await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
    await page.getByRole("button", { name: "Дозволити" }).click();
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
  }

  test("prompt=none: signed in to KPI ID only (no OpenID Connect in this browser yet) is signed in for the application", async ({
    browser,
    baseURL,
  }) => {
    const first = await device(browser, baseURL ?? "");
    await signInThroughApplication(first.page, first.rp.url);

    const second = await device(browser, baseURL ?? "");
    const login = new LoginPage(second.page, "uk");
    await login.goto();
    await login.signIn(demoUsers.student.username, demoUsers.student.password);
    await second.page.waitForURL(/\/uk\/apps/);
    await second.page.goto(`${second.rp.url}/oidc/rp-login?prompt=none`);
    await expect(second.page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);

    const signedOut = await device(browser, baseURL ?? "");
    await signedOut.page.goto(`${signedOut.rp.url}/oidc/rp-login?prompt=none`);
    await expect(signedOut.page.getByTestId("rp-error")).toHaveText("login_required");
  });

  test("prompt=login: the sign-in screen shows to a signed-in person, and auth_time is the new sign-in", async ({
    browser,
    baseURL,
  }) => {
    const { page, rp } = await device(browser, baseURL ?? "");
    await signInThroughApplication(page, rp.url);
    const firstAuthTime = Number(await page.getByTestId("rp-auth-time").textContent());

    // auth_time and the request's time count whole seconds: a sign-in in the same second as the request is, at the
    // protocol's resolution, not before it (the fresh sign-in below may fall in that second too). A person takes
    // longer; this browser waits as the max_age test does.
    await page.waitForTimeout(1100);
    await page.goto(`${rp.url}/oidc/rp-login?prompt=login`);
    await expect(page).toHaveURL(`${baseURL}/uk/?reauth=1`);
    const login = new LoginPage(page, "uk");
    await expect(login.username).toBeVisible();
    await login.signIn(demoUsers.student.username, demoUsers.student.password);
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
    const secondAuthTime = Number(await page.getByTestId("rp-auth-time").textContent());
    expect(secondAuthTime).toBeGreaterThanOrEqual(firstAuthTime);
    expect(secondAuthTime).toBeGreaterThan(0);
  });

  test("max_age: a sign-in older than max_age shows the sign-in screen again; a younger one does not", async ({
    browser,
    baseURL,
  }) => {
    const { page, rp } = await device(browser, baseURL ?? "");
    await signInThroughApplication(page, rp.url);
    const firstAuthTime = Number(await page.getByTestId("rp-auth-time").textContent());

    // oidcc-max-age-1 waits too: auth_time counts whole seconds, so the sign-in must be over 1 s old.
    await page.waitForTimeout(2100);
    await page.goto(`${rp.url}/oidc/rp-login?prompt=&max_age=1`);
    await expect(page).toHaveURL(`${baseURL}/uk/?reauth=1`);
    await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
    // Consent is remembered: straight back to the application.
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
    const renewedAuthTime = Number(await page.getByTestId("rp-auth-time").textContent());
    expect(renewedAuthTime - firstAuthTime).toBeGreaterThanOrEqual(2);

    await page.goto(`${rp.url}/oidc/rp-login?prompt=&max_age=3600`);
    await expect(page.getByTestId("rp-name")).toHaveText(demoUsers.student.fullName);
    expect(Number(await page.getByTestId("rp-auth-time").textContent())).toBe(renewedAuthTime);
  });

  /** Two devices signed in to the application (`query` picks the scope); the laptop then signs out of it. */
  async function laptopSignsOut(browser: Browser, baseURL: string, query = "") {
    const laptop = await device(browser, baseURL);
    const phone = await device(browser, baseURL);
    await signInThroughApplication(laptop.page, laptop.rp.url, query);
    await signInThroughApplication(phone.page, phone.rp.url, query);
    await laptop.page.getByRole("link", { name: "Sign out" }).click();
    await laptop.page.getByRole("button", { name: "Так, вийти" }).click();
    await laptop.page.waitForURL(`${laptop.rp.url}/oidc/signed-out`);
    return { laptop, phone };
  }

  test("signing out of the application on one device ends that device's tokens only; the other device's go on", async ({
    browser,
    baseURL,
  }) => {
    // No offline_access: these tokens live only as long as their device's session.
    const { laptop, phone } = await laptopSignsOut(browser, baseURL ?? "", "?scope=openid+profile");
    await phone.page.goto(`${phone.rp.url}/oidc/rp-userinfo`);
    await expect(phone.page.getByTestId("rp-userinfo")).toHaveText("ok");
    await laptop.page.goto(`${laptop.rp.url}/oidc/rp-userinfo`);
    await expect(laptop.page.getByTestId("rp-userinfo")).toHaveText("invalid_token");
  });

  test("signing out of the application on one device leaves the other device's tokens, and offline access survives", async ({
    browser,
    baseURL,
  }) => {
    const { laptop, phone } = await laptopSignsOut(browser, baseURL ?? "");
    await phone.page.goto(`${phone.rp.url}/oidc/rp-refresh`);
    await expect(phone.page.getByTestId("rp-refresh")).toHaveText("ok");
    // Back-Channel Logout §2.7: the laptop's offline_access refresh token outlives its sign-out.
    await laptop.page.goto(`${laptop.rp.url}/oidc/rp-refresh`);
    await expect(laptop.page.getByTestId("rp-refresh")).toHaveText("ok");
  });
});
