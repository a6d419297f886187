import type { Locator, Page } from "@playwright/test";

/** The demo third-party site `node scripts/start.ts` runs beside the product (DEMO_SITE_PORT). */
export class DemoSitePage {
  readonly page: Page;
  /** The KPI ID button of the ticket protocol. */
  readonly ticketButton: Locator;
  /** The OpenID Connect sign-in link. */
  readonly oidcButton: Locator;
  readonly signedInName: Locator;
  readonly signOut: Locator;
  readonly signedOut: Locator;

  constructor(page: Page) {
    this.page = page;
    this.ticketButton = page.getByRole("link", { name: "Увійти з KPI ID", exact: true });
    this.oidcButton = page.getByTestId("oidc-login");
    this.signedInName = page.getByTestId("signed-in-name");
    this.signOut = page.getByRole("link", { name: "Sign out" });
    this.signedOut = page.getByTestId("signed-out");
  }

  static origin(): string {
    return process.env.DEMO_SITE_URL ?? `http://localhost:${process.env.DEMO_SITE_PORT ?? 4300}`;
  }

  async goto(): Promise<void> {
    await this.page.goto(DemoSitePage.origin());
  }

  /** Waits for KPI ID's ticket to land on the site's callback. */
  async waitForTicketCallback(): Promise<void> {
    await this.page.waitForURL(new RegExp(`^${DemoSitePage.origin()}/callback\\?ticketId=`));
  }

  /** Waits for the site's OpenID Connect callback (code exchanged, person shown). */
  async waitForOidcCallback(): Promise<void> {
    await this.page.waitForURL(new RegExp(`^${DemoSitePage.origin()}/oidc/callback\\?`));
  }
}
