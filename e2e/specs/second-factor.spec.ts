import { generate } from "otplib";
import { demoUsers, expect, test } from "../fixtures.ts";
import { LoginPage } from "../pages/login-page.ts";
import { SecondFactorPage, turnOffSecondFactor } from "../pages/second-factor-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";

test.describe("an authenticator app as the second factor", () => {
  test("set up from the account page with a QR code, asked after the password, a recovery code signs in, turned off", async ({
    page,
    browser,
  }) => {
    const person = demoUsers.newcomer;
    await signInThroughApi(page, "uk", person);
    await page.goto("/uk/account#second-factor");
    const mine = new SecondFactorPage(page, "uk");
    await mine.setUp.click();
    await expect(mine.section.getByRole("img")).toBeVisible();
    const secret = (await mine.secret.textContent()) ?? "";
    await mine.firstCode.fill(await generate({ secret }));
    await mine.turnOn.click();
    await expect(mine.recoveryCodes).toHaveCount(10);
    const recoveryCode = (await mine.recoveryCodes.first().textContent()) ?? "";
    await mine.saved.click();
    await expect(mine.state).toContainText("10");

    // Another browser: the password is not enough any more.
    const context = await browser.newContext();
    const other = await context.newPage();
    try {
      const login = new LoginPage(other, "uk");
      await login.goto();
      await login.signIn(person.username, person.password);
      const prompt = new SecondFactorPage(other, "uk");
      await expect(prompt.prompt).toBeVisible();
      await prompt.promptCode.fill(recoveryCode);
      await prompt.promptSubmit.click();
      await other.waitForURL(/\/uk\/apps/);
      // The demo person goes back to one factor for the other specs.
      await other.goto("/uk/account#second-factor");
      await expect(prompt.state).toContainText("9");
      await turnOffSecondFactor(prompt);
      await expect(prompt.setUp).toBeVisible();
    } finally {
      await context.close();
    }
  });
});
