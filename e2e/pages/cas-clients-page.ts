import type { Locator, Page } from "@playwright/test";

/** phpCAS's page (e2e/tools/cas/php-pages.ts): who signed in, the attributes, the back end reached by proxy. */
export class PhpCasPage {
  readonly user: Locator;
  readonly backEnd: Locator;
  readonly proxyLink: Locator;
  readonly signOutLink: Locator;

  readonly page: Page;
  readonly url: string;

  constructor(page: Page, url: string) {
    this.page = page;
    this.url = url;
    this.user = page.getByTestId("php-user");
    this.backEnd = page.getByTestId("php-backend");
    this.proxyLink = page.getByTestId("php-proxy");
    this.signOutLink = page.getByTestId("php-logout");
  }

  attribute(name: string): Locator {
    return this.page.locator(`[data-testid="php-attributes"] li[data-attribute="${name}"]`);
  }

  async open(): Promise<void> {
    await this.page.goto(`${this.url}/index.php`);
  }
}

/** Apache with mod_auth_cas (e2e/tools/cas/clients.ts): its protected locations and what it passes on. */
export class ModAuthCasPage {
  readonly user: Locator;
  readonly name: Locator;
  readonly affiliation: Locator;
  readonly newLogin: Locator;

  readonly page: Page;
  readonly url: string;

  constructor(page: Page, url: string) {
    this.page = page;
    this.url = url;
    this.user = page.getByTestId("apache-user");
    this.name = page.getByTestId("apache-name");
    this.affiliation = page.getByTestId("apache-affiliation");
    this.newLogin = page.getByTestId("apache-new-login");
  }

  /** Opens a location (secure, students, staff, renew, gateway); answers its HTTP status. */
  async open(location: string): Promise<number | undefined> {
    const response = await this.page.goto(`${this.url}/${location}/`);
    return response?.status();
  }
}
