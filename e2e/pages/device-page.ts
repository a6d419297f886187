import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: { continue: "Продовжити", allow: "Дозволити", deny: "Відмовити", code: "Код із пристрою" },
  en: { continue: "Continue", allow: "Allow", deny: "Deny", code: "Code from the device" },
} as const;

/** The device sign-in page at /{lang}/device (RFC 8628): the code, the request, Allow or Deny, the result. */
export class DevicePage {
  readonly page: Page;
  readonly language: Language;
  readonly code: Locator;
  readonly continue: Locator;
  readonly codeError: Locator;
  readonly confirm: Locator;
  readonly shownCode: Locator;
  readonly allow: Locator;
  readonly deny: Locator;
  readonly allowed: Locator;
  readonly denied: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.code = page.getByLabel(text.code);
    this.continue = page.getByRole("button", { name: text.continue });
    this.codeError = page.getByTestId("device-code-error");
    this.confirm = page.getByTestId("device-confirm");
    this.shownCode = page.getByTestId("device-user-code");
    this.allow = page.getByRole("button", { name: text.allow });
    this.deny = page.getByRole("button", { name: text.deny });
    this.allowed = page.getByTestId("device-allowed");
    this.denied = page.getByTestId("device-denied");
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/${this.language}/device${query}`);
  }

  /** Types the code (as the person would, dash or not) and asks what it stands for. */
  async enter(userCode: string): Promise<void> {
    await this.code.fill(userCode);
    await this.continue.click();
  }
}
