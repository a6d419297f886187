import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { DeveloperConsolePage } from "../pages/developers-console-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { closeToasts } from "../pages/toasts.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";

// Issue 60: a student ships from the developers' page alone, with every kind of application.
for (const language of ["uk", "en"] as const) {
  test.describe(`the developers' page, second round (${language})`, () => {
    test("a student comes back to the page after sign-in, registers a single-page application and a command-line tool, sees a refused address in place; a classmate meets the testing page on the ticket path; the owner replaces a secret with an overlap and deletes an application", async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(300_000);
      const developers = new DeveloperConsolePage(page, language);
      const stamp = `${language} ${Date.now().toString(36)}`;
      const localhost = "http://localhost:5173/callback";

      // Opened signed out, the developers' page comes back after sign-in (not the apps list).
      await page.goto(`/${language}/developers`);
      await expect(page).toHaveURL(/returnTo=/);
      await new LoginPage(page, language).signIn(demoUsers.student.username, demoUsers.student.password);
      await expect(page).toHaveURL(new RegExp(`/${language}/developers$`));
      await expect(page.getByTestId("integration-manual-link")).toBeVisible();
      await expect(page.getByTestId("discovery-link")).toContainText("/oidc/.well-known/openid-configuration");

      // A single-page application: a public client with PKCE, redirect URIs only, no secret.
      await developers.startNew("public");
      await developers.fill({ title: `Черга ${stamp}`, titleEn: `Queue ${stamp}`, redirectUris: [localhost] });
      await expectNoAxeViolations(page, "the form of a single-page application");
      await photograph(page, testInfo, `developers-type-public-${language}`);
      const spa = await developers.register();
      expect(spa.secret).toBe("");

      // A command-line tool: no address at all, device sign-in on.
      await developers.startNew("device");
      await expect(page.getByTestId("device-needs-no-address")).toBeVisible();
      await developers.fill({ title: `Термінал ${stamp}`, titleEn: `Terminal ${stamp}` });
      await photograph(page, testInfo, `developers-type-device-${language}`);
      const cli = await developers.register();
      await developers.gotoApplication(cli.appId);
      await expect(page.getByTestId("device-flow-state")).toHaveText(developers.text.deviceOn);
      await expect(page.getByTestId("no-secret")).toBeVisible();

      // A web application with a ticket callback, for the classmate, the secret and the deletion.
      await page.goto(`/${language}/developers`);
      await developers.startNew("web");
      const webTitle = `Квитки ${stamp}`;
      const webTitleEn = `Tickets ${stamp}`;
      await developers.fill({
        title: webTitle,
        titleEn: webTitleEn,
        callbackUrls: ["https://tickets.example.org/callback", "http://127.0.0.1:8088/callback"],
      });
      const web = await developers.register();
      expect(web.secret.length).toBeGreaterThanOrEqual(32);

      // A refused address: said beside the field in the page's language, naming the address; the value stays.
      await developers.gotoApplication(spa.appId);
      await expect(page.getByTestId("development-address")).toBeVisible();
      const error = await developers.saveRefusedRedirectUris([localhost, "http://queue.example.org/callback"]);
      await expect(error).toContainText(`${developers.text.refusedAddress} http://queue.example.org/callback`);
      await expectNoAxeViolations(page, "a refused address beside its field");
      await photograph(page, testInfo, `developers-refused-address-${language}`);

      // A classmate who is no tester: the sign-in page names the application in testing, then the testing page does.
      const classmate = await browser.newContext();
      try {
        const other = await classmate.newPage();
        const login = new LoginPage(other, language);
        await login.goto(`?appId=${web.appId}`);
        await expect(other.getByTestId("signing-in-to-title")).toHaveText(language === "en" ? webTitleEn : webTitle);
        await expect(other.getByTestId("signing-in-to-stage")).toContainText(developers.text.testingStage);
        await expectNoAxeViolations(other, "the sign-in page naming an application in testing");
        await photograph(other, testInfo, `signing-in-to-testing-${language}`);
        await login.signIn(demoUsers.newcomer.username, demoUsers.newcomer.password);
        const testing = other.getByTestId("in-testing-error");
        await expect(testing).toContainText(developers.text.inTesting);
        await expect(testing).toContainText(language === "en" ? webTitleEn : webTitle);
        await expectNoAxeViolations(other, "the ticket path's testing page");
        await photograph(other, testInfo, `ticket-in-testing-${language}`);
      } finally {
        await classmate.close();
      }

      // The owner replaces the web application's secret keeping the old one a day; both are listed.
      await developers.gotoApplication(web.appId);
      const replaced = await developers.replaceSecretWithOverlap();
      expect(replaced).not.toBe(web.secret);
      await expect(page.getByTestId("secret-ends")).toBeVisible();
      await closeToasts(page);
      await expectNoAxeViolations(page, "two secrets during an overlap");
      await photograph(page, testInfo, `developers-secrets-overlap-${language}`);

      // Deleting asks for the name first.
      await page.getByTestId("delete-application").click();
      await expectNoAxeViolations(page, "the deletion's confirmation");
      await photograph(page, testInfo, `developers-delete-${language}`);
      await page.keyboard.press("Escape");
      await developers.deleteApplication(language === "en" ? webTitleEn : webTitle);

      // The other two go too, so the student's list stays as the other specs expect it.
      for (const appId of [spa.appId, cli.appId]) {
        await developers.gotoApplication(appId);
        const name = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
        await developers.deleteApplication(name.trim());
      }
    });

    test("an OpenID Connect sign-in of an application in testing: the bare sign-in page names it with its mark", async ({
      page,
      browser,
      baseURL,
    }, testInfo) => {
      const stamp = `${language} ${Date.now().toString(36)}`;
      const title = `Голосування ${stamp}`;
      const titleEn = `Voting ${stamp}`;
      const redirectUri = "http://localhost:5173/callback";
      await signInThroughApi(page, language, demoUsers.student);
      // Registered as on the developers' page (the form is the other test's): in testing, not reviewed.
      const origin = { origin: baseURL ?? "" };
      const created = await page.request.post("/api/developers/applications", {
        data: { title, titleEn, redirectUris: [redirectUri], scopes: ["openid", "profile"] },
        headers: origin,
      });
      expect(created.status()).toBe(200);
      const appId: string = (await created.json()).application.id;
      const classmate = await browser.newContext();
      try {
        const other = await classmate.newPage();
        const authorize = new URLSearchParams({
          client_id: appId,
          response_type: "code",
          redirect_uri: redirectUri,
          scope: "openid",
          state: "second-round",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          code_challenge_method: "S256",
          ui_locales: language,
        });
        // No KPI ID session: the provider sends the browser to the bare sign-in page, the application on the server.
        await other.goto(`/oidc/auth?${authorize}`);
        await expect(other).toHaveURL(new RegExp(`/${language}/$`));
        await expect(other.getByTestId("signing-in-to-title")).toHaveText(language === "en" ? titleEn : title);
        await expect(other.getByTestId("signing-in-to-stage")).toHaveAttribute("data-stage", "testing");
        await expect(other.getByTestId("signing-in-to-stage")).toContainText(
          new DeveloperConsolePage(other, language).text.testingStage,
        );
        await expectNoAxeViolations(other, "the sign-in page naming an OpenID Connect application in testing");
        await photograph(other, testInfo, `signing-in-to-oidc-${language}`);
      } finally {
        await classmate.close();
      }
      // The student's list stays as the other specs expect it.
      const deleted = await page.request.post(`/api/developers/applications/${appId}/delete`, {
        data: { confirm: title },
        headers: origin,
      });
      expect(deleted.status()).toBe(200);
    });
  });
}
