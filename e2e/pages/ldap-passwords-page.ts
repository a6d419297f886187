import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { name: "Назва пароля", create: "Створити пароль", revoke: "Відкликати", done: "Я його зберіг(-ла)" },
  en: { name: "Password name", create: "Create password", revoke: "Revoke", done: "I have saved it" },
} as const;

/** The account page's application passwords (LDAP) card. */
export class LdapPasswordsPage {
  readonly page: Page;
  readonly section: Locator;
  readonly rows: Locator;
  readonly none: Locator;
  readonly name: Locator;
  readonly create: Locator;
  /** The new password's panel: shown once, with the username and bind DN to type into the system. */
  readonly created: Locator;
  readonly createdPassword: Locator;
  readonly done: Locator;
  private readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.text = labels[language];
    this.section = page.getByTestId("account-ldap");
    this.rows = this.section.getByTestId("ldap-password");
    this.none = this.section.getByTestId("ldap-none");
    this.name = this.section.getByLabel(this.text.name);
    this.create = this.section.getByRole("button", { name: this.text.create });
    this.created = this.section.getByTestId("ldap-new");
    this.createdPassword = this.section.getByTestId("ldap-new-password");
    this.done = this.created.getByRole("button", { name: this.text.done });
  }

  async open(origin: string, language: Language): Promise<void> {
    await this.page.goto(`${origin}/${language}/account#ldap`);
  }

  revokeButton(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${this.text.revoke}`) });
  }

  /** The confirmation the revoke button asks for. */
  confirmRevoke(): Locator {
    return this.page.getByRole("dialog").getByTestId("confirm-action");
  }
}
