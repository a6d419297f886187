import type { BankIdErrorReason } from "@kpi-id/contracts";
import { expect, type Locator, type Page } from "@playwright/test";
import { bankIdRefusalTitles } from "../../apps/web/test/bankid-refusal-titles.ts";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    button: "Увійти через BankID",
    recoveryButton: "Продовжити через BankID",
    picker: "Оберіть свій банк",
    continue: "Перейти до банку",
    returning: "Завершуємо вхід через BankID…",
  },
  en: {
    button: "Sign in with BankID",
    recoveryButton: "Continue with BankID",
    picker: "Choose your bank",
    continue: "Continue to the bank",
    returning: "Finishing BankID sign-in…",
  },
} as const;

/**
 * KPI ID's side of BankID: the login screen's button (or Forgot password's), the university's bank picker
 * it opens, the alert a refused sign-in leaves, and the return page /{lang}/bankid-auth.
 */
export class BankIdEntryPage {
  readonly page: Page;
  readonly language: Language;
  readonly button: Locator;
  readonly recoveryButton: Locator;
  readonly picker: Locator;
  readonly banks: Locator;
  readonly continue: Locator;
  readonly pickerError: Locator;
  /** The picker's line saying from when the list is, when NBU's node does not give one. */
  readonly staleNote: Locator;
  readonly error: Locator;
  readonly returning: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.button = page.getByTestId("bankid-login").filter({ hasText: text.button });
    this.recoveryButton = page.getByTestId("bankid-login").filter({ hasText: text.recoveryButton });
    this.picker = page.getByRole("group", { name: text.picker });
    this.banks = this.picker.getByRole("radio");
    this.continue = page.getByRole("button", { name: text.continue });
    this.pickerError = page.getByTestId("bank-picker-error");
    this.staleNote = page.getByTestId("bank-picker-stale");
    this.error = page.getByTestId("bankid-error");
    this.returning = page.getByRole("status").filter({ hasText: text.returning });
  }

  bank(name: string): Locator {
    return this.picker.getByRole("radio", { name });
  }

  /** Presses the BankID button; with the university's picker, picks `bankName` and continues to the bank. */
  async start(bankName: string, button: Locator = this.button): Promise<void> {
    await button.click();
    if ((await button.getAttribute("aria-expanded")) === null) return;
    await this.bank(bankName).check();
    await this.continue.click();
  }

  async expectRefused(reason: BankIdErrorReason): Promise<void> {
    await expect(this.error).toBeVisible();
    await expect(this.error).toContainText(bankIdRefusalTitles[this.language][reason]);
  }
}

/** The sandbox's BankID NBU stand-in (SANDBOX_BANKID_PORT): NBU's bank chooser, then the bank's persona page. */
export class BankIdStandInPage {
  readonly page: Page;
  readonly cancel: Locator;

  constructor(page: Page) {
    this.page = page;
    this.cancel = page.locator('button[data-persona="cancelled"]');
  }

  /** The stand-in's origin: http://localhost:{SANDBOX_BANKID_PORT}. */
  static origin(): string {
    return `http://localhost:${process.env.SANDBOX_BANKID_PORT ?? 3305}`;
  }

  persona(id: string): Locator {
    return this.page.locator(`button[data-persona="${id}"]`);
  }

  /** NBU's chooser, shown when KPI ID named no bank. */
  bank(id: string): Locator {
    return this.page.locator(`a[data-bank="${id}"]`);
  }

  async waitForIt(): Promise<void> {
    await this.page.waitForURL(`${BankIdStandInPage.origin()}/**`);
  }

  /** Signs in at the bank as a persona (sandbox/src/bankid/personas.ts), or cancels with "cancelled". */
  async choose(personaId: string): Promise<void> {
    await this.waitForIt();
    await this.persona(personaId).click();
  }
}
