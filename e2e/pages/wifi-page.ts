import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    name: "Назва пристрою",
    create: "Створити пароль",
    revoke: "Відкликати",
    done: "Я його ввів(-ла)",
    copy: "Скопіювати пароль",
  },
  en: {
    name: "Device name",
    create: "Create password",
    revoke: "Revoke",
    done: "I have entered it",
    copy: "Copy password",
  },
} as const;

/** The account page's Wi-Fi (eduroam) passwords card. */
export class WifiPage {
  readonly page: Page;
  readonly section: Locator;
  readonly rows: Locator;
  readonly none: Locator;
  readonly name: Locator;
  readonly create: Locator;
  /** The new password's panel: shown once, with its QR code. */
  readonly created: Locator;
  readonly createdPassword: Locator;
  readonly qrCode: Locator;
  readonly copy: Locator;
  readonly done: Locator;
  private readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.text = labels[language];
    this.section = page.getByTestId("account-wifi");
    this.rows = this.section.getByTestId("wifi-password");
    this.none = this.section.getByTestId("wifi-none");
    this.name = this.section.getByLabel(this.text.name);
    this.create = this.section.getByRole("button", { name: this.text.create });
    this.created = this.section.getByTestId("wifi-new");
    this.createdPassword = this.section.getByTestId("wifi-new-password");
    this.qrCode = this.created.getByRole("img");
    this.copy = this.created.getByRole("button", { name: this.text.copy });
    this.done = this.created.getByRole("button", { name: this.text.done });
  }

  revokeButton(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${this.text.revoke}`) });
  }

  /** The confirmation the revoke button asks for. */
  confirmRevoke(): Locator {
    return this.page.getByRole("dialog").getByTestId("confirm-action");
  }
}

const consoleLabels = {
  uk: { off: "Вимкнути Wi-Fi", on: "Увімкнути Wi-Fi" },
  en: { off: "Turn Wi-Fi off", on: "Turn Wi-Fi on" },
} as const;

/** The console's Wi-Fi card on a person's screen. */
export class ConsoleWifi {
  readonly section: Locator;
  readonly state: Locator;
  readonly turnOff: Locator;
  readonly turnOn: Locator;
  readonly confirm: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.section = page.getByTestId("person-wifi");
    this.state = page.getByTestId("person-wifi-state");
    this.turnOff = this.section.getByRole("button", { name: consoleLabels[language].off });
    this.turnOn = this.section.getByRole("button", { name: consoleLabels[language].on });
    this.confirm = page.getByRole("dialog").getByTestId("confirm-action");
  }
}
