import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

/** The discovery screen (/{lang}/institution): search, the institutions found, and why a sign-in was refused. */
export class InstitutionSearchPage {
  readonly page: Page;
  readonly language: Language;
  readonly search: Locator;
  readonly choices: Locator;
  /** The refusal an institution's answer met (/{lang}/institution?error=…). */
  readonly refused: Locator;
  /** The refusal of a sign-in that could not start (an institution visitors may not come from). */
  readonly startRefused: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.search = page.locator("#institution-search");
    this.choices = page.getByTestId("institution-choice");
    this.refused = page.getByTestId("institution-refused");
    this.startRefused = page.getByTestId("institution-start-error");
  }

  /** The login screen's "Sign in with your institution". */
  static entryOnLogin(page: Page): Locator {
    return page.getByTestId("institution-login");
  }

  async goto(origin: string): Promise<void> {
    await this.page.goto(`${origin}/${this.language}/institution`);
  }

  choice(name: string | RegExp): Locator {
    return this.choices.filter({ hasText: name });
  }
}

/** The first sign-in's agreement: what the institution released, and the button that makes the visitor account. */
export class InstitutionWelcomePage {
  readonly page: Page;
  readonly welcome: Locator;
  readonly accept: Locator;

  constructor(page: Page) {
    this.page = page;
    this.welcome = page.getByTestId("institution-welcome");
    this.accept = page.getByTestId("institution-accept");
  }
}

/** SimpleSAMLphp's own login form (exampleauth:UserPass) at the home institution. */
export class HomeIdpLoginPage {
  readonly page: Page;
  readonly username: Locator;
  readonly password: Locator;

  constructor(page: Page) {
    this.page = page;
    this.username = page.locator("input[name=username]");
    this.password = page.locator("input[name=password]");
  }

  async signIn(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.password.press("Enter");
  }
}
