import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    keys: "Ключі підпису",
    service: "Сервіс",
    rotate: "Замінити ключ підпису",
    rotated: "Новий ключ",
    signing: "Підписує зараз",
    next: "Наступний: опубліковано, ще не підписує",
    postgres: "PostgreSQL",
    pglite: "Вбудована PGlite",
    ready: "Готовий",
    reset: "Скинути другий фактор",
    authenticatorOn: "Застосунок-автентифікатор налаштовано.",
    authenticatorOff: "Застосунку-автентифікатора немає.",
    resetDone: "Другий фактор скинуто",
  },
  en: {
    keys: "Signing keys",
    service: "Service",
    rotate: "Rotate the signing key",
    rotated: "New key",
    signing: "Signs now",
    next: "Next: published, not signing yet",
    postgres: "PostgreSQL",
    pglite: "Embedded PGlite",
    ready: "Ready",
    reset: "Reset second factor",
    authenticatorOn: "An authenticator app is set up.",
    authenticatorOff: "No authenticator app.",
    resetDone: "The second factor is reset",
  },
} as const;

/** The console's signing keys and service screens, and the person screen's second factor section. */
export class ConsoleServicePage {
  readonly page: Page;
  readonly language: Language;
  readonly oidcKeys: Locator;
  readonly samlKeys: Locator;
  readonly confirmDialog: Locator;
  readonly database: Locator;
  readonly health: Locator;
  readonly version: Locator;
  readonly updated: Locator;
  readonly refresh: Locator;
  readonly recovery: Locator;
  readonly secondFactorState: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.oidcKeys = page.getByTestId("oidc-keys-table");
    this.samlKeys = page.getByTestId("saml-keys-table");
    this.confirmDialog = page.getByRole("dialog");
    this.database = page.getByTestId("service-database");
    this.health = page.getByTestId("service-health");
    this.version = page.getByTestId("service-version");
    this.updated = page.getByTestId("service-updated");
    this.refresh = page.getByTestId("service-refresh");
    this.recovery = page.getByTestId("person-recovery");
    this.secondFactorState = this.recovery.getByTestId("second-factor-state");
  }

  get text() {
    return labels[this.language];
  }

  /** The keys' rows of the OpenID Connect table. */
  get oidcRows(): Locator {
    return this.oidcKeys.locator("tbody tr");
  }

  get signingRow(): Locator {
    return this.oidcRows.filter({ hasText: this.text.signing });
  }

  async openKeys(): Promise<void> {
    await this.page.getByRole("link", { name: this.text.keys, exact: true }).click();
    await expect(this.page).toHaveURL(new RegExp(`/${this.language}/admin/keys$`));
    await expect(this.signingRow).toHaveCount(1);
  }

  /** Opens the rotation's confirmation (it names what happens); `confirm` then rotates. */
  async askToRotate(): Promise<void> {
    await this.page.getByRole("button", { name: this.text.rotate }).click();
    await expect(this.confirmDialog).toBeVisible();
  }

  async confirm(): Promise<void> {
    await this.page.getByTestId("confirm-action").click();
    await expect(this.confirmDialog).toBeHidden();
  }

  async openService(): Promise<void> {
    await this.page.getByRole("link", { name: this.text.service, exact: true }).click();
    await expect(this.page).toHaveURL(new RegExp(`/${this.language}/admin/service$`));
    await expect(this.database).toBeVisible();
  }

  async resetSecondFactor(): Promise<void> {
    await this.recovery.getByRole("button", { name: this.text.reset }).click();
    await expect(this.confirmDialog).toBeVisible();
  }
}
