import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { sizeFor } from "../tools/photographs.ts";
import { views } from "../tools/walk.ts";

// Every console screen, in each of the walk's views (tools/walk.ts), passes axe's WCAG 2.1 AA
// rules (issue 37). One Diia sign-in per view; the screens are opened as an operator would.
const screens: { name: string; open: (page: Page, language: string) => Promise<void> }[] = [
  {
    name: "people",
    open: async (page, language) => {
      await page.goto(`/${language}/admin`);
      // A person's link, not any row: until the list's answer the table holds placeholder rows.
      await expect(page.getByTestId("people-table").getByRole("link").first()).toBeVisible();
    },
  },
  {
    name: "a person",
    open: async (page, language) => {
      await page.goto(`/${language}/admin?q=${encodeURIComponent("Коваленко")}`);
      await page.getByTestId("people-table").getByRole("link").first().click();
      await expect(page.getByTestId("person-name")).toBeVisible();
      await expect(page.getByTestId("person-history")).toBeVisible();
    },
  },
  {
    name: "applications",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/applications`);
      await expect(page.getByTestId("applications-table").locator("tbody tr").first()).toBeVisible();
    },
  },
  {
    name: "an application",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/applications`);
      await page.getByTestId("applications-table").getByRole("link").first().click();
      await expect(page.getByTestId("application-settings")).toBeVisible();
      // Not busy: until its answer the table of who has access holds placeholder rows.
      await expect(page.getByTestId("application-people").locator("tbody")).not.toHaveAttribute("aria-busy");
      await expect(page.getByTestId("application-people").locator("tbody tr").first()).toBeVisible();
    },
  },
  {
    name: "reviews",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/reviews`);
      await expect(page.getByTestId("review-count")).toBeVisible();
    },
  },
  {
    name: "audit",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/audit`);
      await expect(page.getByTestId("audit-table").locator("tbody tr").first()).toBeVisible();
    },
  },
  {
    name: "import",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/import`);
      await expect(page.getByTestId("import-file")).toBeVisible();
    },
  },
  {
    name: "keys",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/keys`);
      await expect(page.getByTestId("oidc-keys").locator("tbody tr").first()).toBeVisible();
    },
  },
  {
    name: "service",
    open: async (page, language) => {
      await page.goto(`/${language}/admin/service`);
      await expect(page.getByTestId("service-health")).toBeVisible();
      await expect(page.getByTestId("service-updated")).toBeVisible();
    },
  },
];

for (const { language, width } of views) {
  test(`every console screen passes axe at ${width} px (${language})`, async ({ page }) => {
    // A Diia sign-in and nine full-page axe runs on a machine shared with other work.
    test.setTimeout(240_000);
    await page.setViewportSize(sizeFor(width));
    const console = new ConsolePage(page, language);
    await console.signInWithDiiaThroughApi("employee");
    for (const screen of screens) {
      await screen.open(page, language);
      // axe reads a toast that is still fading as faint text: the screen is checked once it has gone.
      await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
      await expectNoAxeViolations(page, `${screen.name} at ${width} px (${language})`);
    }
  });
}
