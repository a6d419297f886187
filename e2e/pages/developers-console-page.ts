import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    title: "Назва українською",
    titleEn: "Назва англійською",
    redirectUris: "Адреси перенаправлення (OpenID Connect), по одній у рядку",
    callbackUrls: "Адреси повернення квитка (протокол квитків KPI ID), по одній у рядку",
    overlap: "Під час заміни старий секрет діятиме ще",
    oneDay: "1 день",
    deviceOn: "Вхід із пристрою увімкнено.",
    insecure: "Дозволені лише адреси https",
    refusedAddress: "Відхилена адреса:",
    inTesting: "ще тестують",
    signingInTo: "Ви входите в",
    testingStage: "Ще тестують його розробники",
  },
  en: {
    title: "Name in Ukrainian",
    titleEn: "Name in English",
    redirectUris: "Redirect URIs (OpenID Connect), one a line",
    callbackUrls: "Ticket callback addresses (KPI ID ticket protocol), one a line",
    overlap: "When replacing, keep the old secret working for",
    oneDay: "1 day",
    deviceOn: "Device sign-in is on.",
    insecure: "Only https addresses",
    refusedAddress: "The address refused:",
    inTesting: "is still being tested",
    signingInTo: "You are signing in to",
    testingStage: "Still being tested by its developers",
  },
} as const;

export type ClientType = "web" | "public" | "device";

/**
 * The developers' page's second round (issue 60): the kind of application first, the secrets with an overlap,
 * device sign-in, refusals beside their field, deleting. The first round's page object is developers-page.ts.
 */
export class DeveloperConsolePage {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof labels)[Language];
  readonly form: Locator;
  readonly secretOnce: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = labels[language];
    this.form = page.getByTestId("application-form");
    this.secretOnce = page.getByTestId("secret-once");
  }

  /** Opens the new application's form and picks its kind: the fields it does not need go away. */
  async startNew(type: ClientType): Promise<void> {
    await this.page.getByTestId("new-application").click();
    await expect(this.form).toBeVisible();
    await this.form.getByTestId(`client-type-${type}`).check();
    const callbacks = this.form.getByLabel(this.text.callbackUrls);
    const redirects = this.form.getByLabel(this.text.redirectUris);
    await expect(callbacks).toHaveCount(type === "web" ? 1 : 0);
    await expect(redirects).toHaveCount(type === "device" ? 0 : 1);
  }

  async fill(fields: { title: string; titleEn: string; callbackUrls?: string[]; redirectUris?: string[] }) {
    await this.form.getByLabel(this.text.title, { exact: true }).fill(fields.title);
    await this.form.getByLabel(this.text.titleEn, { exact: true }).fill(fields.titleEn);
    if (fields.callbackUrls) await this.form.getByLabel(this.text.callbackUrls).fill(fields.callbackUrls.join("\n"));
    if (fields.redirectUris) await this.form.getByLabel(this.text.redirectUris).fill(fields.redirectUris.join("\n"));
  }

  /** Registers; answers the id and the secret shown once (empty for a public client, which has none). */
  async register(): Promise<{ appId: string; secret: string }> {
    // The notice of an application registered before may still show: wait for this one's id.
    const shownId = this.page.getByTestId("created-app-id");
    const before = (await shownId.count()) > 0 ? ((await shownId.textContent()) ?? "").trim() : "";
    await this.page.getByTestId("application-form-submit").click();
    await expect(this.secretOnce).toBeVisible();
    await expect(shownId).not.toHaveText(before || "-");
    const appId = ((await shownId.textContent()) ?? "").trim();
    const shown = this.page.getByTestId("created-secret");
    const secret = (await shown.count()) > 0 ? ((await shown.textContent()) ?? "").trim() : "";
    return { appId, secret };
  }

  async gotoApplication(appId: string): Promise<void> {
    await this.page.goto(`/${this.language}/developers/${appId}`);
    await expect(this.page.getByTestId("developer-application").getByTestId("lifecycle")).toBeVisible();
  }

  /** Saves redirect URIs the server refuses: the reason and the address stay beside the field, the value too. */
  async saveRefusedRedirectUris(uris: string[]): Promise<Locator> {
    const field = this.form.getByLabel(this.text.redirectUris);
    await field.fill(uris.join("\n"));
    await this.form.getByTestId("application-form-submit").click();
    const error = this.form.getByTestId("redirectUris-error");
    await expect(error).toContainText(this.text.insecure);
    await expect(field).toHaveValue(uris.join("\n"));
    return error;
  }

  /** Replaces the secret keeping the old one a day; answers the new secret, shown once. */
  async replaceSecretWithOverlap(): Promise<string> {
    await this.page.getByLabel(this.text.overlap).selectOption({ label: this.text.oneDay });
    await this.page.getByTestId("rotate-secret").click();
    await this.page.getByTestId("confirm-action").click();
    await expect(this.page.getByTestId("created-secret")).toBeVisible();
    await expect(this.page.getByTestId("secret-previous")).toBeVisible();
    return ((await this.page.getByTestId("created-secret").textContent()) ?? "").trim();
  }

  /** Deletes the application, typing its name to confirm; ends on the list without it. */
  async deleteApplication(name: string): Promise<void> {
    await this.page.getByTestId("delete-application").click();
    await this.page.getByTestId("delete-confirm-name").fill(name);
    await this.page.getByTestId("delete-confirm").click();
    await expect(this.page.getByTestId("developers-screen")).toBeVisible();
    await expect(this.page.getByTestId("developer-application-link").filter({ hasText: name })).toHaveCount(0);
  }
}
