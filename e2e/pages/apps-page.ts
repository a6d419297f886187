import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { logout: "Вийти", myData: "«Мої дані»" },
  en: { logout: "Sign out", myData: "My data" },
} as const;

/** The apps screen at /{lang}/apps. */
export class AppsPage {
  readonly page: Page;
  readonly language: Language;
  readonly heading: Locator;
  readonly cards: Locator;
  readonly logout: Locator;
  readonly myDataLink: Locator;
  readonly myData: Locator;
  readonly redirectError: Locator;
  readonly noAppsError: Locator;
  /** KPI ID refused the return address (redirectUri) an application on the list named. */
  readonly redirectUriError: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    this.heading = page.getByRole("heading", { level: 1 });
    this.cards = page.getByTestId("app-card");
    this.logout = page.getByRole("button", { name: labels[language].logout });
    this.myDataLink = page.getByRole("button", { name: labels[language].myData });
    this.myData = page.getByTestId("my-data");
    this.redirectError = page.getByTestId("redirect-error");
    this.noAppsError = page.getByTestId("no-apps-error");
    this.redirectUriError = page.getByTestId("redirect-uri-error");
  }

  url(): RegExp {
    return new RegExp(`/${this.language}/apps(\\?.*)?$`);
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/${this.language}/apps${query}`);
  }
}
