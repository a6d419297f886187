import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { signInThroughApi, wrongPasswordThroughApi } from "../tools/api-sign-in.ts";

for (const language of ["uk", "en"] as const) {
  test.describe(`the operators' console (${language})`, () => {
    test("find a person, unlock them, end their sessions, give them an application and take it back", async ({
      page,
      browser,
    }) => {
      // Three browsers, two axe checks and six confirmed changes: 55 s of the 60 s limit during a CI rehearsal's
      // run on two cores, over it once when more ran beside it. Three times the limit, as test.slow() gives.
      test.slow();
      // The newcomer is signed in elsewhere, so there is a session to end.
      const elsewhere = await browser.newContext();
      await signInThroughApi(await elsewhere.newPage(), language, demoUsers.newcomer);
      // A stranger's wrong guess at the newcomer's password, so there is a lock to lift.
      const stranger = await browser.newContext();
      await wrongPasswordThroughApi(await stranger.newPage(), demoUsers.newcomer.username);
      await stranger.close();

      const console = new ConsolePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      await expectNoAxeViolations(page, "people");
      await console.findAndOpen("Бондар", demoUsers.newcomer.fullName);
      await expectNoAxeViolations(page, "a person");

      await console.confirm("unlock");
      await expect(console.doneToast).toBeVisible();
      // With nothing held against the account, Unlock has nothing to do and says so by being inactive.
      await expect(console.unlockButton).toBeDisabled();
      await expect(console.sessionList.locator("li")).not.toHaveCount(0);
      await console.confirm("endSessions");
      await expect(console.sessionList.locator("li")).toHaveCount(0);
      const title = await console.grantFirstApplication();
      await expect(console.personApplications).toContainText(title);
      // Taking it back again leaves the newcomer without applications, as other walks expect.
      const granted = console.personApplications.getByRole("listitem").filter({ hasText: title });
      await console.confirm("revoke", granted);
      await expect(granted).toHaveCount(0);
      await elsewhere.close();
    });

    test("register an application and rotate its secret", async ({ page }) => {
      const console = new ConsolePage(page, language);
      await console.signInWithDiiaThroughApi("employee");
      await console.openApplications();
      const name = `walk-${language}-${Date.now().toString(36)}`;
      await console.createApplication(name, `Walk ${language}`, "https://walk.kpi.ua/callback");
      await expect(console.secret).toBeVisible();
      const first = await console.secret.textContent();
      await expect(console.rowOf(`Walk ${language}`)).toBeVisible();
      await console.confirm("rotate", console.rowOf(`Walk ${language}`));
      await expect(console.secret).not.toHaveText(first ?? "");
      await expectNoAxeViolations(page, "applications");
    });
  });
}
