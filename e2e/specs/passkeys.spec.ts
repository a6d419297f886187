import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import {
  credentialRequests,
  holdAutofill,
  PasskeysPage,
  recordCredentialRequests,
  VirtualAuthenticator,
} from "../pages/passkeys-page.ts";
import { useOwnKpiId } from "../tools/own-kpi-id.ts";

/**
 * Passkeys through Chromium's virtual authenticator. The walk adds and removes passkeys, so it runs
 * against a KPI ID of its own (an empty embedded database, one person created here): the shared demo
 * people keep no passkeys.
 */
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 9;
const person = { username: "passkey-walker", fullName: "Ключ Тестовий", password: "a walker's long passphrase" };

const origin = useOwnKpiId(port, { env: { REAUTH_MAX_AGE_SECONDS: "120" }, people: [person] });

async function signInWithPassword(page: Page) {
  const login = new LoginPage(page, "uk");
  await login.goto("", origin);
  await login.signIn(person.username, person.password);
  await page.waitForURL(/\/uk\/apps/);
}

async function signOut(page: Page) {
  const apps = new AppsPage(page, "uk");
  await page.goto(`${origin}/uk/apps`);
  await apps.logout.click();
  await page.waitForURL(new RegExp(`${origin}/uk/?$`));
}

test.describe("passkeys with Chromium's virtual authenticator", () => {
  test("add from the account page, sign in with the button and with autofill, a clone is refused, remove", async ({
    page,
    browser,
  }) => {
    const authenticator = await VirtualAuthenticator.attach(page);
    await recordCredentialRequests(page);
    const passkeys = new PasskeysPage(page, "uk");
    await signInWithPassword(page);

    await page.goto(`${origin}/uk/account#passkeys`);
    await expect(passkeys.none).toBeVisible();
    await passkeys.name.fill("Робочий ноутбук");
    await passkeys.add.click();
    await expect(passkeys.rows).toHaveCount(1);
    await expect(passkeys.rows.first()).toContainText("Робочий ноутбук");
    const [stored] = await authenticator.credentials();
    expect(stored?.isResidentCredential).toBe(true);
    expect(stored?.rpId).toBe("localhost");

    // The button: the pending autofill request is aborted, and the button's own request signs in.
    await holdAutofill(page, true);
    await signOut(page);
    await expect
      .poll(async () => (await credentialRequests(page)).map((call) => call.mediation))
      .toEqual(["conditional"]);
    await passkeys.signInButton.click();
    await page.waitForURL(/\/uk\/apps/);
    expect(await credentialRequests(page)).toEqual([
      { mediation: "conditional", outcome: "AbortError" },
      { mediation: "optional", outcome: "resolved" },
    ]);

    // Autofill: the username field offers the passkey; the virtual authenticator answers the waiting request.
    await holdAutofill(page, false);
    await signOut(page);
    await page.waitForURL(/\/uk\/apps/);
    expect((await credentialRequests(page)).at(-1)).toEqual({ mediation: "conditional", outcome: "resolved" });

    // A copy of the key with a lower counter, in another browser: refused as a clone.
    const [used] = await authenticator.credentials();
    expect(used?.signCount).toBeGreaterThan(1);
    const context = await browser.newContext();
    const other = await context.newPage();
    try {
      const copy = await VirtualAuthenticator.attach(other);
      if (!used) throw new Error("no credential to copy");
      await copy.addCredential({ ...used, signCount: 1 });
      const login = new LoginPage(other, "uk");
      await login.goto("", origin);
      const otherPasskeys = new PasskeysPage(other, "uk");
      await expect(otherPasskeys.signInError).toContainText("скопійовано");
      await expect(other).not.toHaveURL(/\/uk\/apps/);
    } finally {
      await context.close();
    }

    // Remove it: the account page lists none, and the key signs in no more.
    await page.goto(`${origin}/uk/account#passkeys`);
    await passkeys.removeButton(passkeys.rows.first()).click();
    await page.getByRole("dialog").getByTestId("confirm-action").click();
    await expect(passkeys.none).toBeVisible();
    await signOut(page);
    await passkeys.signInButton.click();
    await expect(passkeys.signInError).toBeVisible();
  });
});
