import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { LoginPage } from "../pages/login-page.ts";

// The demo third-party site that `node scripts/start.ts` runs beside the product (DEMO_SITE_PORT=4300).
const demoSiteUrl = process.env.DEMO_SITE_URL ?? `http://localhost:${process.env.DEMO_SITE_PORT ?? 4300}`;

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
  }) => {
    await page.goto(demoSiteUrl);
    const button = page.getByRole("link", { name: "Увійти з KPI ID", exact: true });
    await expect(button).toBeVisible();
    await button.click();

    await expect(page).toHaveURL(new RegExp(`^${baseURL}/uk/\\?appId=[0-9a-f-]{36}$`));
    const loginPage = new LoginPage(page, "uk");
    await loginPage.signIn(demoUsers.student.username, demoUsers.student.password);

    // The apps screen sees the appId and goes straight to the app; KPI ID hands the site a ticket.
    await page.waitForURL(new RegExp(`^${demoSiteUrl}/callback\\?ticketId=`));
    await expect(page.getByTestId("signed-in-name")).toHaveText(demoUsers.student.fullName);
    await expect(page.getByText("PASSWORD")).toBeVisible();
  });

  test("the wizard's HTML snippet, pasted into a blank page on another origin, renders a working button", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.goto("/en/button-wizard");
    const appId = page.getByLabel("Application id (appId)");
    await expect(appId).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Enter the application id: without it the button does not appear.")).toBeVisible();

    const id = "0b2c6a7e-1f4d-4c1a-9e8b-5d3f2a1b0c9d";
    await appId.fill(id);
    await expect(appId).toHaveAttribute("aria-invalid", "false");
    await page.getByLabel("Language").selectOption("en");
    await page.getByLabel("Size").selectOption("medium");
    await page.getByLabel("Dev mode").check();

    // The preview is the real script's button, re-initialised after each change.
    const preview = page.getByTestId("button-preview");
    await expect(preview.getByRole("link", { name: "Sign in with KPI ID" })).toHaveClass(/kpi-id-btn--medium/);
    await expect(preview).toHaveClass(/border-dashed/);

    const copied: string[] = [];
    for (const name of ["1. Include the script", "2. Add the button"]) {
      await page.getByRole("button", { name: `Copy: ${name}` }).click();
      await expect(page.getByText("Script copied to clipboard").first()).toBeVisible();
      copied.push(await page.evaluate(() => navigator.clipboard.readText()));
    }
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
  }) => {
    await page.goto("/uk/button-wizard");
    const manual = page.getByRole("link", { name: "Відкрити посібник (PDF)" });
    await expect(manual).toHaveAttribute("href", "/integration_manual.pdf");
    await expect(manual).toHaveAttribute("target", "_blank");
    const pdf = await page.request.get("/integration_manual.pdf");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");

    await expectNoAxeViolations(page, "the button wizard");
    await page.getByRole("tab", { name: "React" }).click();
    await expect(page.getByRole("heading", { name: "1. Хук" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "2. Компонент" })).toBeVisible();
    await expect(page.getByText("export function useKpiIdSignin")).toBeVisible();
  });
});
