import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { allow: "Дозволити", deny: "Відмовити", heading: (title: string) => `Вхід до «${title}»` },
  en: { allow: "Allow", deny: "Deny", heading: (title: string) => `Sign in to “${title}”` },
} as const;

/** The consent screen at /{lang}/consent?uid= (OpenID Connect, applications that are not first-party). */
export class ConsentPage {
  readonly page: Page;
  readonly language: Language;
  readonly scopes: Locator;
  readonly allow: Locator;
  readonly deny: Locator;
  readonly error: Locator;
  /** Why a service provider's SAML message was refused (/{lang}/consent?samlError=…). */
  readonly samlRefused: Locator;
  /** The marks saying whether the university reviewed the application. */
  readonly reviewed: Locator;
  readonly notReviewed: Locator;
  /** A community application's home page, privacy policy and owners. */
  readonly publisher: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    this.scopes = page.getByTestId("consent-scopes");
    this.allow = page.getByRole("button", { name: labels[language].allow });
    this.deny = page.getByRole("button", { name: labels[language].deny });
    this.error = page.getByTestId("consent-error");
    this.samlRefused = page.getByTestId("saml-refused");
    this.reviewed = page.getByTestId("consent-reviewed");
    this.notReviewed = page.getByTestId("consent-not-reviewed");
    this.publisher = page.getByTestId("consent-publisher");
  }

  /** The heading naming the application that asks. */
  heading(applicationTitle: string): Locator {
    return this.page.getByRole("heading", { name: labels[this.language].heading(applicationTitle) });
  }

  /** Waits until the browser is on the consent screen of `baseURL`. */
  async waitFor(baseURL: string): Promise<void> {
    await this.page.waitForURL(new RegExp(`^${baseURL}/${this.language}/consent\\?uid=`));
  }

  /** Waits until the browser is on the consent screen of a community application's ticket link (issue 56). */
  async waitForTicket(baseURL: string): Promise<void> {
    await this.page.waitForURL(new RegExp(`^${baseURL}/${this.language}/consent\\?ticket=`));
  }

  /** Waits until the browser is on the consent screen for a SAML service provider. */
  async waitForSaml(baseURL: string): Promise<void> {
    await this.page.waitForURL(new RegExp(`^${baseURL}/${this.language}/consent\\?saml=`));
  }
}
