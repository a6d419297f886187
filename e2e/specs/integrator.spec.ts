import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { LoginPage } from "../pages/login-page.ts";

/** A blank page on its own origin (another port), serving whatever HTML the test gives it. */
async function blankSite(html: string, headers: Record<string, string> = {}): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
    response.end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

test.describe("for integrators", () => {
  test("the demo site's button leads through a KPI ID password sign-in back to the site, which shows who signed in", async ({
    page,
    baseURL,
    demoSitePage,
  }) => {
    await demoSitePage.goto();
    await expect(demoSitePage.ticketButton).toBeVisible();
    await demoSitePage.ticketButton.click();

    await expect(page).toHaveURL(new RegExp(`^${baseURL}/uk/\\?appId=[0-9a-f-]{36}$`));
    const loginPage = new LoginPage(page, "uk");
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);

    // The apps screen sees the appId and goes straight to the app; KPI ID hands the site a ticket.
    await demoSitePage.waitForTicketCallback();
    await expect(demoSitePage.signedInName).toHaveText(demoUsers.student.fullName);
    await expect(page.getByText("PASSWORD")).toBeVisible();
  });

  test("the wizard's HTML snippet, pasted into a blank page on another origin, renders a working button", async ({
    page,
    context,
    baseURL,
    enButtonWizardPage: wizard,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await wizard.goto();
    await expect(wizard.appId).toHaveAttribute("aria-invalid", "true");
    await expect(wizard.appIdError).toBeVisible();

    const id = "0b2c6a7e-1f4d-4c1a-9e8b-5d3f2a1b0c9d";
    await wizard.appId.fill(id);
    await expect(wizard.appId).toHaveAttribute("aria-invalid", "false");
    await wizard.buttonLanguage.selectOption("en");
    await wizard.size.selectOption("medium");
    await wizard.devMode.check();

    // The preview is the real script's button, re-initialised after each change.
    await expect(wizard.preview.getByRole("link", { name: "Sign in with KPI ID" })).toHaveClass(/kpi-id-btn--medium/);
    await expect(wizard.preview).toHaveClass(/border-dashed/);

    const copied: string[] = [];
    for (const name of ["1. Include the script", "2. Add the button"]) copied.push(await wizard.copy(name));
    expect(copied[1]).toContain(`data-app-id="${id}"`);
    expect(copied[1]).toContain('data-dev-mode="true"');
    expect(copied[1]).not.toContain("data-full-width");

    const blank = await blankSite(`<!doctype html><html><body><h1>Blank</h1>${copied.join("\n")}</body></html>`);
    try {
      await page.goto(blank.url);
      const button = page.getByRole("link", { name: "Sign in with KPI ID" });
      await expect(button).toBeVisible();
      await button.click();
      await expect(page).toHaveURL(`${baseURL}/en/?appId=${id}`);
      await expect(new LoginPage(page, "en").username).toBeVisible();
    } finally {
      blank.server.close();
    }
  });

  test("the wizard links the integration manual, and the React tab has the hook and the component", async ({
    page,
    buttonWizardPage: wizard,
  }) => {
    await wizard.goto();
    await expect(wizard.manual).toHaveAttribute("href", "/integration_manual.pdf");
    await expect(wizard.manual).toHaveAttribute("target", "_blank");
    const pdf = await page.request.get("/integration_manual.pdf");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");

    await expectNoAxeViolations(page, "the button wizard");
    await wizard.tab("React").click();
    await expect(page.getByRole("heading", { name: "1. Хук" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "2. Компонент" })).toBeVisible();
    await expect(page.getByText("export function useKpiIdSignin")).toBeVisible();
  });
});
