import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    forgotLink: "Забули пароль?",
    forgotHeading: "Забули пароль?",
    diia: "Через Дію",
    email: "Електронною поштою",
    emailLabel: "Адреса електронної пошти",
    send: "Надіслати посилання",
    resetHeading: "Новий пароль",
    newPassword: "Новий пароль",
    resetSubmit: "Встановити новий пароль",
    signIn: "Увійти",
  },
  en: {
    forgotLink: "Forgot password?",
    forgotHeading: "Forgot your password?",
    diia: "With Diia",
    email: "By e-mail",
    emailLabel: "E-mail address",
    send: "Send the link",
    resetHeading: "Set a new password",
    newPassword: "New password",
    resetSubmit: "Set the new password",
    signIn: "Sign in",
  },
} as const;

/** "Forgot password?" at /{lang}/forgot-password: the ways back in, the e-mail form, Diia's QR. */
export class ForgotPasswordPage {
  readonly page: Page;
  readonly language: Language;
  readonly heading: Locator;
  readonly diia: Locator;
  readonly email: Locator;
  readonly address: Locator;
  readonly send: Locator;
  readonly sent: Locator;
  readonly qr: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.heading = page.getByRole("heading", { level: 1, name: text.forgotHeading });
    this.diia = page.getByRole("link", { name: new RegExp(`^${text.diia}`) });
    this.email = page.getByRole("link", { name: new RegExp(`^${text.email}`) });
    this.address = page.getByLabel(text.emailLabel);
    this.send = page.getByRole("button", { name: text.send });
    this.sent = page.getByTestId("recovery-sent");
    this.qr = page.getByTestId("diia-qr");
  }

  /** The login screen's "Forgot password?" link, then this page. */
  async openFromLogin(): Promise<void> {
    await this.page.goto(`/${this.language}/`);
    await this.page.getByRole("link", { name: labels[this.language].forgotLink }).click();
    await expect(this.page).toHaveURL(new RegExp(`/${this.language}/forgot-password$`));
    await this.heading.waitFor();
  }

  async askForLink(address: string): Promise<void> {
    await this.email.click();
    await this.address.fill(address);
    await this.send.click();
    await this.sent.waitFor();
  }

  /** Chooses Diia; answers the deep link its QR code holds (what a phone's camera would read). */
  async chooseDiia(): Promise<string> {
    const appLink = this.page.waitForResponse((response) => response.url().includes("/api/diia/app-link"));
    await this.diia.click();
    const { deepLink } = (await (await appLink).json()) as { deepLink: string };
    await expect(this.qr).toBeVisible();
    return deepLink;
  }
}

/** /{lang}/reset-password: whose account the link is for, the new password and its meter. */
export class ResetPasswordPage {
  readonly page: Page;
  readonly language: Language;
  readonly heading: Locator;
  readonly holder: Locator;
  readonly newPassword: Locator;
  readonly meter: Locator;
  readonly submit: Locator;
  readonly refused: Locator;
  readonly done: Locator;
  readonly linkInvalid: Locator;
  readonly signIn: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.heading = page.getByRole("heading", { level: 1, name: text.resetHeading });
    this.holder = page.getByTestId("reset-holder");
    this.newPassword = page.getByLabel(text.newPassword, { exact: true });
    this.meter = page.getByTestId("strength-meter");
    this.submit = page.getByRole("button", { name: text.resetSubmit });
    this.refused = page.getByTestId("password-refused");
    this.done = page.getByTestId("reset-done");
    this.linkInvalid = page.getByTestId("reset-link-invalid");
    this.signIn = page.getByRole("link", { name: text.signIn, exact: true });
  }

  async setPassword(password: string): Promise<void> {
    await this.newPassword.fill(password);
    await this.submit.click();
  }
}
