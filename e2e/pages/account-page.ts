import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    heading: "Мій обліковий запис",
    thisDevice: "Цей пристрій",
    endSession: "Вийти",
    endOthers: "Вийти на всіх інших пристроях",
    link: "Прив’язати Google",
    unlink: "Відв’язати",
    linked: "Прив’язано",
    password: "Пароль",
    confirm: "Підтвердити",
    change: "Змінити",
    currentPassword: "Поточний пароль",
    newPassword: "Новий пароль",
    changeSubmit: "Змінити пароль",
  },
  en: {
    heading: "My account",
    thisDevice: "This device",
    endSession: "Sign out",
    endOthers: "Sign out everywhere else",
    link: "Link Google",
    unlink: "Unlink",
    linked: "Linked",
    password: "Password",
    confirm: "Confirm",
    change: "Change",
    currentPassword: "Current password",
    newPassword: "New password",
    changeSubmit: "Change the password",
  },
} as const;

/** The account page at /{lang}/account: profile, sessions, connected applications, sign-in methods, activity. */
export class AccountPage {
  readonly page: Page;
  readonly language: Language;
  readonly heading: Locator;
  readonly profile: Locator;
  readonly sessions: Locator;
  readonly sessionRows: Locator;
  readonly endOthers: Locator;
  readonly applications: Locator;
  readonly methods: Locator;
  readonly google: Locator;
  readonly linkGoogle: Locator;
  readonly unlinkGoogle: Locator;
  readonly googleLinkOutcome: Locator;
  readonly activity: Locator;
  readonly reauthDialog: Locator;
  readonly reauthPassword: Locator;
  readonly reauthConfirm: Locator;
  readonly passwordMethod: Locator;
  readonly changePassword: Locator;
  readonly passwordForm: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly passwordSubmit: Locator;
  readonly passwordRefused: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.heading = page.getByRole("heading", { level: 1, name: text.heading });
    this.profile = page.getByTestId("account-profile");
    this.sessions = page.getByTestId("account-sessions");
    this.sessionRows = this.sessions.getByTestId("session");
    this.endOthers = this.sessions.getByRole("button", { name: text.endOthers });
    this.applications = page.getByTestId("account-applications");
    this.methods = page.getByTestId("account-methods");
    this.google = page.getByTestId("method-google");
    this.linkGoogle = this.google.getByRole("button", { name: text.link });
    this.unlinkGoogle = this.google.getByRole("button", { name: text.unlink });
    this.googleLinkOutcome = page.getByTestId("google-link-outcome");
    this.activity = page.getByTestId("account-activity");
    this.reauthDialog = page.getByRole("dialog");
    this.reauthPassword = this.reauthDialog.getByLabel(text.password, { exact: true });
    this.reauthConfirm = this.reauthDialog.getByRole("button", { name: text.confirm });
    this.passwordMethod = page.getByTestId("method-password");
    this.changePassword = this.passwordMethod.getByRole("button", { name: text.change, exact: true });
    this.passwordForm = page.getByTestId("password-form");
    this.currentPassword = this.passwordForm.getByLabel(text.currentPassword, { exact: true });
    this.newPassword = this.passwordForm.getByLabel(text.newPassword, { exact: true });
    this.passwordSubmit = this.passwordForm.getByRole("button", { name: text.changeSubmit });
    this.passwordRefused = this.passwordForm.getByTestId("password-refused");
  }

  url(): RegExp {
    return new RegExp(`/${this.language}/account(\\?.*)?$`);
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/account`);
    await this.heading.waitFor();
  }

  /** The row of this browser's own session. */
  currentSession(): Locator {
    return this.sessionRows.filter({ hasText: labels[this.language].thisDevice });
  }

  /** The session rows whose device line names this text ("Firefox 128"). */
  sessionsOf(device: string): Locator {
    return this.sessionRows.filter({ hasText: device });
  }

  endSession(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${labels[this.language].endSession}`) });
  }

  googleLinked(): Locator {
    return this.google.getByText(labels[this.language].linked, { exact: true });
  }

  /** Fills the open password form and sends it. */
  async submitPassword(current: string, next: string): Promise<void> {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.passwordSubmit.click();
  }

  /** Proves it is them again with the password in the re-authentication dialog. */
  async confirmWithPassword(password: string): Promise<void> {
    await this.reauthPassword.fill(password);
    await this.reauthConfirm.click();
  }
}
