import type { GoogleErrorReason } from "@kpi-id/contracts";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { GoogleStandInPage } from "../pages/google-stand-in-page.ts";
import { LoginPage } from "../pages/login-page.ts";

const demoSiteUrl = DemoSitePage.origin();

/** Every address the tab's main frame showed, in order: the redirects the person passes through. */
function recordNavigations(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

test.describe("sign-in with Google (against the sandbox stand-in)", () => {
  test("from a site's button: login screen → Google → account page → /google-auth → server callback → apps with the appId → the site", async ({
    page,
    baseURL,
  }) => {
    const navigations = recordNavigations(page);
    const serverCallbacks: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.url().startsWith(`${baseURL}/google/auth?`)) {
        serverCallbacks.push(request.url());
      }
    });
    await page.goto(demoSiteUrl);
    await page.getByRole("link", { name: "Увійти з KPI ID", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/uk/\\?appId=[0-9a-f-]{36}$`));
    const appId = new URL(page.url()).searchParams.get("appId") ?? "";

    const loginPage = new LoginPage(page, "uk");
    await loginPage.googleButton.click();
    const google = new GoogleStandInPage(page);
    await google.choose("student");

    // The apps screen sees the appId and goes straight to the app; KPI ID hands the site a ticket.
    await page.waitForURL(new RegExp(`^${demoSiteUrl}/callback\\?ticketId=`));
    await expect(page.getByTestId("signed-in-name")).toHaveText("Олена Коваленко");
    // Exact: the ticket's AUTH_AMR ("google") is listed too.
    await expect(page.getByText("GOOGLE", { exact: true })).toBeVisible();

    const googleAuth = navigations.find((url) => url.startsWith(`${baseURL}/google-auth?`));
    expect(googleAuth, navigations.join("\n")).toBeDefined();
    const answer = new URL(googleAuth ?? "");
    expect(answer.searchParams.get("code")).toBeTruthy();
    // The appId stays with the server: Google's state and the callback's address do not carry it.
    expect(answer.searchParams.get("state")).toMatch(/^[\w-]{22}$/);
    expect(googleAuth).not.toContain(appId);
    // The page hands the answer to the server, which sets the session and redirects onwards.
    expect(serverCallbacks).toHaveLength(1);
    expect(navigations).toContain(`${baseURL}/uk/apps?appId=${appId}`);
  });

  test("without an appId the person lands on the apps screen, signed in with Google", async ({
    loginPage,
    appsPage,
    page,
  }) => {
    await loginPage.goto();
    await loginPage.googleButton.click();
    await new GoogleStandInPage(page).choose("employee");
    await expect(page).toHaveURL(/\/uk\/apps$/);
    await expect(appsPage.heading).toHaveText("Вітаємо, Андрій Мельник!");
    await appsPage.myDataLink.click();
    await expect(appsPage.myData).toContainText("Google");
  });

  test("the stand-in's account page passes axe", async ({ loginPage, page }) => {
    await loginPage.goto();
    await loginPage.googleButton.click();
    const google = new GoogleStandInPage(page);
    await google.waitForIt();
    await expectNoAxeViolations(page, "the Google stand-in's account page");
  });

  const refusals: {
    title: string;
    language: "uk" | "en";
    reason: GoogleErrorReason;
    /** What the alert says for this reason, in the page's language. */
    message: string;
    act: (google: GoogleStandInPage) => Promise<void>;
  }[] = [
    {
      title: "a Google account no campus person has",
      language: "uk",
      reason: "no_account",
      message: "попросіть службу підтримки пов’язати його",
      act: (g) => g.choose("unknownWorkspace"),
    },
    {
      title: "a personal Google account outside the university's Workspace",
      language: "en",
      reason: "outside_domain",
      message: "Only accounts of the university's Google Workspace sign in by themselves",
      act: (g) => g.choose("stranger"),
    },
    {
      title: "an address Google has not verified",
      language: "en",
      reason: "email_unverified",
      message: "Google has not verified this account's e-mail address.",
      act: (g) => g.choose("unverified"),
    },
    {
      title: "cancelling at Google",
      language: "uk",
      reason: "cancelled",
      message: "Вхід через Google скасовано",
      act: async (g) => {
        await g.waitForIt();
        await g.cancel.click();
      },
    },
  ];

  for (const refusal of refusals) {
    test(`${refusal.title} ends on the login page with that reason's Google alert, and the flag leaves the URL`, async ({
      page,
      baseURL,
    }) => {
      const navigations = recordNavigations(page);
      const loginPage = new LoginPage(page, refusal.language);
      await loginPage.goto();
      await loginPage.googleButton.click();
      await refusal.act(new GoogleStandInPage(page));

      await expect(loginPage.googleError).toContainText(refusal.message);
      // It stays and says whom to ask: the help page in the page's language (issue 37).
      await expect(loginPage.googleError.getByRole("link")).toHaveAttribute("href", `/${refusal.language}/faq`);
      await expect(page).toHaveURL(`${baseURL}/${refusal.language}/`);
      expect(navigations).toContain(`${baseURL}/${refusal.language}/?google_auth_error=${refusal.reason}`);
      // No session came of it: the apps screen sends the person back to login.
      await page.goto(`/${refusal.language}/apps`);
      await expect(page).toHaveURL(`${baseURL}/${refusal.language}/`);
    });
  }
});
