import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

/** The console's CAS section of an application (apps/web/src/features/console-applications/components/application-cas.tsx). */
export class ConsoleCasSection {
  readonly page: Page;
  readonly language: Language;
  readonly section: Locator;
  readonly serverUrl: Locator;
  readonly services: Locator;
  readonly url: Locator;
  readonly prefix: Locator;
  readonly singleLogout: Locator;
  readonly attributes: Locator;
  readonly renames: Locator;
  readonly add: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.section = page.getByTestId("application-cas");
    this.serverUrl = page.getByTestId("cas-server-url");
    this.services = page.getByTestId("cas-service");
    this.url = page.getByTestId("cas-url");
    this.prefix = page.getByTestId("cas-prefix");
    this.singleLogout = page.getByTestId("cas-singleLogout");
    this.attributes = page.getByTestId("cas-attributes");
    this.renames = page.getByTestId("cas-renames");
    this.add = page.getByTestId("cas-add");
  }

  async open(applicationId: string): Promise<void> {
    await this.page.goto(`/${this.language}/admin/applications/${applicationId}`);
    // Visible, not only in the page: the screen holds its sections hidden until the rules and services answer
    // (answers-first.tsx), and a text assertion on the hidden server URL would pass before the screen shows.
    await expect(this.section).toBeVisible();
    await this.section.scrollIntoViewIfNeeded();
  }

  /** Registers a service from the form, as an operator does. */
  async register(
    url: string,
    options: { prefix?: boolean; singleLogout?: boolean; attributes?: string; renames?: string } = {},
  ): Promise<void> {
    await this.url.fill(url);
    if (options.prefix) await this.prefix.check();
    if (options.singleLogout) await this.singleLogout.check();
    if (options.attributes) await this.attributes.fill(options.attributes);
    if (options.renames) await this.renames.fill(options.renames);
    await this.add.click();
  }
}
