import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    heading: "Розробникам",
    title: "Назва українською",
    titleEn: "Назва англійською",
    description: "Опис українською",
    descriptionEn: "Опис англійською",
    homePage: "Домашня сторінка",
    privacyPolicy: "Політика конфіденційності",
    redirectUris: "Адреси перенаправлення (OpenID Connect), по одній у рядку",
    copy: "Копіювати",
    copied: "Скопійовано",
    purpose: "Для чого застосунок",
    dataNeeded: "Які дані потрібні й навіщо",
    testers: "Тестувальники",
    testing: "Тестування",
    inReview: "На перевірці",
    live: "Працює для всіх",
    liveText: "Застосунок працює для всіх.",
    suspended: "Призупинено",
    refused: "Запит не прийнято",
    development: "адреса для розробки",
  },
  en: {
    heading: "For developers",
    title: "Name in Ukrainian",
    titleEn: "Name in English",
    description: "Description in Ukrainian",
    descriptionEn: "Description in English",
    homePage: "Home page",
    privacyPolicy: "Privacy policy",
    redirectUris: "Redirect URIs (OpenID Connect), one a line",
    copy: "Copy",
    copied: "Copied",
    purpose: "What the application is for",
    dataNeeded: "The data it needs and why",
    testers: "Testers",
    testing: "Testing",
    inReview: "In review",
    live: "Live",
    liveText: "The application is live.",
    suspended: "Suspended",
    refused: "The request was not accepted",
    development: "development address",
  },
} as const;

export interface NewApplication {
  title: string;
  titleEn: string;
  description: string;
  descriptionEn: string;
  homePageUrl: string;
  privacyPolicyUrl: string;
  redirectUris: string[];
}

/** The developers' page /{lang}/developers: a person's own applications, registering one, one application. */
export class DevelopersPage {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof labels)[Language];
  readonly screen: Locator;
  readonly newApplication: Locator;
  readonly form: Locator;
  /** The credentials shown once, right after registering. */
  readonly secretOnce: Locator;
  readonly createdAppId: Locator;
  readonly createdSecret: Locator;
  readonly application: Locator;
  readonly lifecycle: Locator;
  readonly testersList: Locator;
  readonly reviewPending: Locator;
  readonly reviewRefused: Locator;
  readonly settings: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = labels[language];
    this.screen = page.getByTestId("developers-screen");
    this.newApplication = page.getByTestId("new-application");
    this.form = page.getByTestId("application-form");
    this.secretOnce = page.getByTestId("secret-once");
    this.createdAppId = page.getByTestId("created-app-id");
    this.createdSecret = page.getByTestId("created-secret");
    this.application = page.getByTestId("developer-application");
    this.lifecycle = page.getByTestId("developer-application").getByTestId("lifecycle");
    this.testersList = page.getByRole("list", { name: this.text.testers });
    this.reviewPending = page.getByTestId("review-pending");
    this.reviewRefused = page.getByTestId("review-refused");
    this.settings = page.getByTestId("application-form");
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/developers`);
    await expect(this.page.getByRole("heading", { level: 1, name: this.text.heading })).toBeVisible();
    await expect(this.newApplication).toBeVisible();
  }

  async startNew(): Promise<void> {
    await this.newApplication.click();
    await expect(this.form).toBeVisible();
  }

  async fill(application: NewApplication): Promise<void> {
    const form = this.form;
    await form.getByLabel(this.text.title, { exact: true }).fill(application.title);
    await form.getByLabel(this.text.titleEn, { exact: true }).fill(application.titleEn);
    await form.getByLabel(this.text.description, { exact: true }).fill(application.description);
    await form.getByLabel(this.text.descriptionEn, { exact: true }).fill(application.descriptionEn);
    await form.getByLabel(this.text.homePage, { exact: true }).fill(application.homePageUrl);
    await form.getByLabel(this.text.privacyPolicy, { exact: true }).fill(application.privacyPolicyUrl);
    await form.getByLabel(this.text.redirectUris).fill(application.redirectUris.join("\n"));
  }

  /** Registers the filled form and waits for the credentials shown once. */
  async register(): Promise<{ appId: string; secret: string }> {
    await this.page.getByTestId("application-form-submit").click();
    await expect(this.secretOnce).toBeVisible();
    return {
      appId: ((await this.createdAppId.textContent()) ?? "").trim(),
      secret: ((await this.createdSecret.textContent()) ?? "").trim(),
    };
  }

  /** Copies the secret with its button; answers what reached the clipboard (the context needs clipboard-read). */
  async copySecret(): Promise<string> {
    const row = this.createdSecret.locator("xpath=..");
    await row.getByRole("button", { name: this.text.copy }).click();
    await expect(this.page.getByText(this.text.copied).first()).toBeVisible();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** From the list to one application's page. */
  async open(title: string): Promise<void> {
    await this.page.getByTestId("developer-application-link").filter({ hasText: title }).click();
    await expect(this.application.getByRole("heading", { level: 1, name: title })).toBeVisible();
  }

  async gotoApplication(appId: string): Promise<void> {
    await this.page.goto(`/${this.language}/developers/${appId}`);
    await expect(this.lifecycle).toBeVisible();
  }

  /** Invites a tester (issue 56): listed as waiting until they accept on their own developers' page. */
  async addTester(person: string): Promise<void> {
    await this.page.getByTestId("testers-input").fill(person);
    await this.page.getByTestId("testers-add").click();
    await expect(this.page.getByTestId("testers-pending")).toContainText(person);
  }

  /** Sends the review request; `expect: "refused"` when the server is to turn it down (the reason stays by the form). */
  async requestReview(purpose: string, dataNeeded: string, outcome: "pending" | "refused" = "pending"): Promise<void> {
    await this.page.getByLabel(this.text.purpose, { exact: true }).fill(purpose);
    await this.page.getByLabel(this.text.dataNeeded, { exact: true }).fill(dataNeeded);
    await this.page.getByTestId("request-review").click();
    await expect(outcome === "pending" ? this.reviewPending : this.reviewRefused).toBeVisible();
  }

  /** Replaces the OpenID Connect redirect URIs in the application's settings and saves them. */
  async saveRedirectUris(uris: string[]): Promise<void> {
    await this.settings.getByLabel(this.text.redirectUris).fill(uris.join("\n"));
    const saved = this.page.waitForResponse(
      (response) =>
        response.request().method() === "POST" &&
        /\/api\/developers\/applications\/[0-9a-f-]{36}$/.test(response.url()),
    );
    await this.settings.getByTestId("application-form-submit").click();
    expect((await saved).status()).toBe(200);
  }
}

const consoleLabels = {
  uk: {
    nav: "Перевірка застосунків",
    heading: "Запити на перевірку",
    approve: "Схвалити",
    reject: "Відхилити",
    rejectSubmit: "Відхилити з цією причиною",
    cancel: "Скасувати",
    reasonRequired: "Напишіть причину відмови",
    approved: "схвалено: він працює для всіх.",
    suspend: "Призупинити застосунок",
    resume: "Відновити застосунок",
    reason: "Причина (її побачать власники в листі)",
    suspendedDone: "призупинено.",
    resumedDone: "відновлено.",
  },
  en: {
    nav: "Application reviews",
    heading: "Review requests",
    approve: "Approve",
    reject: "Reject",
    rejectSubmit: "Reject with this reason",
    cancel: "Cancel",
    reasonRequired: "Write why it is rejected",
    approved: "is approved: it works for everyone.",
    suspend: "Suspend the application",
    resume: "Resume the application",
    reason: "Reason (the owners see it in their e-mail)",
    suspendedDone: "is suspended.",
    resumedDone: "is resumed.",
  },
} as const;

/** The console's review queue /{lang}/admin/reviews (the operator is signed in, ConsolePage). */
export class ReviewQueuePage {
  readonly page: Page;
  readonly text: (typeof consoleLabels)[Language];
  readonly queue: Locator;
  readonly reasonError: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.text = consoleLabels[language];
    this.queue = page.getByTestId("review-queue");
    this.reasonError = page.getByTestId("review-reason-error");
  }

  /** From any console screen through the console's navigation. */
  async open(): Promise<void> {
    await this.page.getByRole("link", { name: this.text.nav, exact: true }).click();
    await expect(this.page.getByRole("heading", { level: 2, name: this.text.heading })).toBeVisible();
  }

  request(title: string): Locator {
    return this.page.getByTestId("review-request").filter({ has: this.page.getByRole("heading", { name: title }) });
  }

  /** Reject with no reason: the form refuses and says why under the field. */
  async rejectWithoutReason(title: string): Promise<void> {
    const card = this.request(title);
    await card.getByRole("button", { name: this.text.reject, exact: true }).click();
    await card.getByRole("button", { name: this.text.rejectSubmit }).click();
    await expect(this.reasonError).toContainText(this.text.reasonRequired);
  }

  async cancelRejection(title: string): Promise<void> {
    await this.request(title).getByRole("button", { name: this.text.cancel }).click();
  }

  async approve(title: string): Promise<void> {
    await this.request(title).getByRole("button", { name: this.text.approve, exact: true }).click();
    await this.page.getByTestId("confirm-action").click();
    await expect(this.page.getByText(this.text.approved).first()).toBeVisible();
    await expect(this.request(title)).toHaveCount(0);
  }
}

/** The Suspension section of the console's application screen /{lang}/admin/applications/{id}. */
export class ApplicationSuspension {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof consoleLabels)[Language];
  readonly section: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = consoleLabels[language];
    this.section = page.getByTestId("application-suspension");
  }

  async open(appId: string): Promise<void> {
    await this.page.goto(`/${this.language}/admin/applications/${appId}`);
    await expect(this.section).toBeVisible();
  }

  /** Suspend (with a reason for the owners) or resume, confirming the question the button asks. */
  async change(action: "suspend" | "resume", reason = ""): Promise<void> {
    if (reason) await this.section.getByLabel(this.text.reason).fill(reason);
    await this.section.getByRole("button", { name: this.text[action] }).click();
    await this.page.getByTestId("confirm-action").click();
    const done = action === "suspend" ? this.text.suspendedDone : this.text.resumedDone;
    await expect(this.page.getByText(done).first()).toBeVisible();
  }
}
