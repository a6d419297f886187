import { expect, type Locator, type Page } from "@playwright/test";
import { DiiaPhonePage } from "./diia-phone-page.ts";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    error: "Не вдалося увійти через Дію. Спробуйте ще раз.",
    newCode: "Отримати новий код",
    openApp: "Відкрити Дію",
  },
  en: { error: "Could not sign in with Diia. Please try again.", newCode: "Get a new code", openApp: "Open Diia" },
} as const;

/** The Diia screen at /{lang}/diia: the QR code, its refresh, and the error toast. */
export class DiiaQrPage {
  readonly page: Page;
  readonly language: Language;
  readonly qr: Locator;
  readonly errorToast: Locator;
  /** The alert that stays when Diia's answer is refused for a reason the person must act on. */
  readonly refusal: Locator;
  readonly stopped: Locator;
  readonly newCode: Locator;
  /** On a phone: the button beside the code that opens the Diia app. */
  readonly openApp: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.language = language;
    this.qr = page.getByTestId("diia-qr");
    this.errorToast = page.getByText(labels[language].error);
    this.refusal = page.getByTestId("diia-refusal");
    this.stopped = page.getByTestId("diia-stopped");
    this.newCode = page.getByRole("button", { name: labels[language].newCode });
    this.openApp = page.getByRole("link", { name: labels[language].openApp, exact: true });
  }

  /**
   * Login screen → the QR block → this screen; returns the deep link the QR code holds (read from the
   * app-link answer the screen drew it from: what a phone's camera would read).
   */
  async openFromLogin(query = ""): Promise<string> {
    await this.page.goto(`/${this.language}/${query}`);
    const appLink = this.page.waitForResponse((response) => response.url().includes("/api/diia/app-link"));
    await this.page.getByTestId("diia-login").click();
    // The query as given, every character literal (a state carries "+", "." and "?").
    const literal = query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await expect(this.page).toHaveURL(new RegExp(`/${this.language}/diia${literal}$`));
    const { deepLink } = (await (await appLink).json()) as { deepLink: string };
    await expect(this.qr).toBeVisible();
    expect(deepLink.startsWith(`${DiiaPhonePage.origin()}/`)).toBe(true);
    return deepLink;
  }
}
