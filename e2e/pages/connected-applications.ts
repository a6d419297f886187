import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { revoke: "Відкликати доступ", ticketData: "Через квитки отримує:" },
  en: { revoke: "Revoke access", ticketData: "Through tickets it receives:" },
} as const;

/** The account page's "Connected applications" (OpenID Connect grants and ticket consents) at /{lang}/account. */
export class ConnectedApplications {
  readonly page: Page;
  readonly language: Language;
  readonly section: Locator;
  readonly rows: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    this.section = page.getByTestId("account-applications");
    this.rows = this.section.getByTestId("connected-application");
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/account#applications`);
    await this.section.waitFor();
  }

  /** The row of one application, by its title. */
  row(title: string): Locator {
    return this.rows.filter({ hasText: title });
  }

  /** What the person allowed the application over tickets, as listed in its row. */
  ticketData(title: string): Locator {
    return this.row(title).getByTestId("connected-ticket-data");
  }

  ticketDataHeading(title: string): Locator {
    return this.row(title).getByText(labels[this.language].ticketData);
  }

  async revoke(title: string): Promise<void> {
    // The button's name is its label and, for screen readers, the application's title after it.
    await this.row(title).getByRole("button", { name: labels[this.language].revoke }).click();
  }
}
