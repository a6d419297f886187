import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { accept: "Прийняти й продовжити", ended: "завершено" },
  en: { accept: "Accept and continue", ended: "ended" },
} as const;

/** What a sponsor fills in for a guest. */
export interface GuestToInvite {
  fullName: string;
  email: string;
  /** YYYY-MM-DD, the last day of the stay. */
  lastDay: string;
  reason: string;
  /** The application the guest needs, as its checkbox is named on the form. */
  application: RegExp;
}

/** The account page's "My guests" card (/{lang}/account#guests): the invitation form and the sponsor's guests. */
export class SponsorGuestsCard {
  readonly page: Page;
  readonly language: Language;
  readonly form: Locator;
  readonly rows: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.form = page.getByTestId("guest-invite-form");
    this.rows = page.getByTestId("guest-row");
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/account#guests`);
  }

  row(email: string): Locator {
    return this.rows.filter({ hasText: email });
  }

  /** The word the guest's row shows once their stay has ended. */
  endedWord(): string {
    return labels[this.language].ended;
  }

  /** Fills the form; `send` sends it. */
  async fill(guest: GuestToInvite): Promise<void> {
    await this.form.locator("#guest-name").fill(guest.fullName);
    await this.form.locator("#guest-email-new").fill(guest.email);
    await this.form.locator("#guest-ends").fill(guest.lastDay);
    await this.form.getByRole("checkbox", { name: guest.application }).check();
    await this.form.locator("#guest-reason").fill(guest.reason);
    await this.form.locator("#guest-language").selectOption(this.language);
  }

  async send(): Promise<void> {
    await this.form.getByRole("button").last().click();
  }
}

/** The invitation page the mail links to (/guest#token=…): the address it came to and a password. */
export class GuestInvitationPage {
  readonly page: Page;
  readonly invitedName: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly accept: Locator;
  readonly linkInvalid: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.invitedName = page.getByTestId("guest-invitation-for");
    this.email = page.locator("#guest-email");
    this.password = page.locator("input[type=password]").first();
    this.accept = page.getByRole("button", { name: labels[language].accept });
    this.linkInvalid = page.getByTestId("guest-link-invalid");
  }

  /** The invitation link in the mail's text. */
  static linkIn(mailText: string): string {
    return /https?:\/\/\S+\/guest#token=[\w-]+/.exec(mailText)?.[0] ?? "";
  }
}
