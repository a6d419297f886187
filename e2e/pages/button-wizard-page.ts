import type { Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    appId: "Ідентифікатор застосунку (appId)",
    appIdError: "Вкажіть ідентифікатор застосунку: без нього кнопка не з'явиться.",
    language: "Мова",
    size: "Розмір",
    devMode: "Режим розробника",
    manual: "Відкрити посібник (PDF)",
    copied: "Script copied to clipboard",
    copy: "Копіювати",
  },
  en: {
    appId: "Application id (appId)",
    appIdError: "Enter the application id: without it the button does not appear.",
    language: "Language",
    size: "Size",
    devMode: "Dev mode",
    manual: "Open the manual (PDF)",
    copied: "Script copied to clipboard",
    copy: "Copy",
  },
} as const;

/** The button wizard at /{lang}/button-wizard: settings, the live preview, the snippets to copy. */
export class ButtonWizardPage {
  readonly page: Page;
  readonly language: Language;
  readonly appId: Locator;
  readonly appIdError: Locator;
  readonly buttonLanguage: Locator;
  readonly size: Locator;
  readonly devMode: Locator;
  readonly preview: Locator;
  readonly manual: Locator;
  readonly copied: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    const text = labels[language];
    this.appId = page.getByLabel(text.appId);
    this.appIdError = page.getByText(text.appIdError);
    this.buttonLanguage = page.getByLabel(text.language);
    this.size = page.getByLabel(text.size);
    this.devMode = page.getByLabel(text.devMode);
    this.preview = page.getByTestId("button-preview");
    this.manual = page.getByRole("link", { name: text.manual });
    this.copied = page.getByText(text.copied).first();
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/button-wizard`);
    await this.appId.waitFor();
  }

  tab(name: string): Locator {
    return this.page.getByRole("tab", { name });
  }

  /** Copies one snippet with its button and returns what reached the clipboard. */
  async copy(snippet: string): Promise<string> {
    await this.page.getByRole("button", { name: `${labels[this.language].copy}: ${snippet}` }).click();
    await this.copied.waitFor();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }
}
