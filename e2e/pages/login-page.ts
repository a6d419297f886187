import type { Locator, Page } from "@playwright/test";
import { noteSignIn } from "../tools/sign-ins.ts";

export type Language = "uk" | "en";

const labels = {
  uk: { username: "Логін", password: "Пароль", submit: "Увійти" },
  en: { username: "Username", password: "Password", submit: "Sign in" },
} as const;

/** The login screen at /{lang}/ (page object shared by every spec). */
export class LoginPage {
  readonly page: Page;
  readonly language: Language;
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly invalidCredentials: Locator;
  /** The alert for any other failure, worded from the server's error code. */
  readonly signInError: Locator;
  readonly googleError: Locator;
  readonly googleButton: Locator;
  readonly diiaLink: Locator;
  /** What the application's sign-in link is wrong about (unknown appId, unregistered redirectUri), before sign-in. */
  readonly appLinkError: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.username = page.getByLabel(text.username, { exact: true });
    this.password = page.getByLabel(text.password, { exact: true });
    this.submit = page.getByRole("button", { name: text.submit, exact: true });
    this.invalidCredentials = page.getByTestId("invalid-credentials");
    this.signInError = page.getByTestId("sign-in-error");
    this.googleError = page.getByTestId("google-error");
    this.googleButton = page.getByTestId("google-login");
    this.diiaLink = page.getByTestId("diia-login");
    this.appLinkError = page.getByTestId("app-link-error");
  }

  /** Opens the login screen; `query` is appended as is (e.g. "?appId=…"); `origin` another address of the server. */
  async goto(query = "", origin = ""): Promise<void> {
    await this.page.goto(`${origin}/${this.language}/${query}`);
    await this.username.waitFor();
  }

  /** Signs in through the form; a spec that needs only a session signs in through the API (tools/api-sign-in.ts). */
  async signIn(username: string, password: string): Promise<void> {
    noteSignIn("screen");
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }
}
