import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    setUp: "Налаштувати застосунок-автентифікатор",
    turnOn: "Увімкнути",
    saved: "Я їх зберіг(ла)",
    turnOff: "Вимкнути",
    submit: "Підтвердити",
  },
  en: {
    setUp: "Set up an authenticator app",
    turnOn: "Turn on",
    saved: "I have saved them",
    turnOff: "Turn off",
    submit: "Confirm",
  },
} as const;

/** The second factor: its card on the account page, and the code prompt after a correct password. */
export class SecondFactorPage {
  readonly page: Page;
  readonly section: Locator;
  readonly state: Locator;
  readonly setUp: Locator;
  readonly secret: Locator;
  readonly firstCode: Locator;
  readonly turnOn: Locator;
  readonly recoveryCodes: Locator;
  readonly saved: Locator;
  readonly turnOff: Locator;
  /** The confirmation dialog's button that carries out what the card's button asked about. */
  readonly confirm: Locator;
  readonly prompt: Locator;
  readonly promptCode: Locator;
  readonly remember: Locator;
  readonly promptSubmit: Locator;

  constructor(page: Page, language: Language = "uk") {
    const text = labels[language];
    this.page = page;
    this.section = page.getByTestId("account-second-factor");
    this.state = this.section.getByTestId("second-factor-state");
    this.setUp = this.section.getByRole("button", { name: text.setUp });
    this.secret = this.section.getByTestId("totp-secret");
    this.firstCode = this.section.locator("#totp-first-code");
    this.turnOn = this.section.getByRole("button", { name: text.turnOn });
    this.recoveryCodes = this.section.getByTestId("recovery-codes").locator("li");
    this.saved = this.section.getByRole("button", { name: text.saved });
    this.turnOff = this.section.getByRole("button", { name: text.turnOff });
    this.confirm = page.getByRole("dialog").getByTestId("confirm-action");
    this.prompt = page.getByTestId("second-factor-form");
    this.promptCode = this.prompt.locator("#second-factor-code");
    this.remember = this.prompt.getByRole("checkbox");
    this.promptSubmit = this.prompt.getByRole("button", { name: text.submit });
  }
}

/** Turns the second factor off through the card's button and its confirmation. */
export async function turnOffSecondFactor(factor: SecondFactorPage): Promise<void> {
  await factor.turnOff.click();
  await factor.confirm.click();
}
