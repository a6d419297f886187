import type { Locator, Page } from "@playwright/test";

/** The PHP page Apache's mod_auth_openidc protects (e2e/tools/mod-auth-openidc.ts), and the module's own addresses. */
export class ModAuthOpenidcPage {
  readonly page: Page;
  readonly origin: string;
  readonly claims: Locator;
  readonly remoteUser: Locator;
  readonly accessToken: Locator;
  readonly signedOut: Locator;

  constructor(page: Page, origin: string) {
    this.page = page;
    this.origin = origin;
    this.claims = page.getByTestId("claims");
    this.remoteUser = page.getByTestId("remote-user");
    this.accessToken = page.getByTestId("access-token");
    this.signedOut = page.getByTestId("signed-out");
  }

  get protectedUrl(): string {
    return `${this.origin}/protected/`;
  }

  /** A claim as the module passed it in its OIDC_CLAIM_* request header. */
  claim(name: string): Locator {
    return this.page.locator(`[data-header="OIDC_CLAIM_${name}"]`);
  }

  async open(): Promise<void> {
    await this.page.goto(this.protectedUrl);
  }

  /** The module's refresh: a new access token from KPI ID, then back to the page. */
  async refresh(accessToken: string): Promise<void> {
    const query = new URLSearchParams({ refresh: this.protectedUrl, access_token: accessToken });
    await this.page.goto(`${this.origin}/protected/redirect_uri?${query}`);
  }

  /** The module's RP-initiated logout: its session ends, then KPI ID's end-session page, then signed-out.html. */
  async signOut(): Promise<void> {
    const query = new URLSearchParams({ logout: `${this.origin}/signed-out.html` });
    await this.page.goto(`${this.origin}/protected/redirect_uri?${query}`);
  }
}
