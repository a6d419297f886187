import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    title: "Назва українською",
    titleEn: "Назва англійською",
    save: "Зберегти",
    sent: "Зміну надіслано адміністраторам на схвалення.",
    pendingTitle: "Зміна очікує на схвалення",
    rejectedTitle: "Зміну не схвалено",
    withdraw: "Відкликати зміну",
    kindChange: "Зміна застосунку, що вже працює",
    approve: "Схвалити",
    reject: "Відхилити",
    reason: "Причина відмови (її побачать власники)",
    rejectSubmit: "Відхилити з цією причиною",
    approved: "схвалено.",
    rejected: "відхилено; власники отримають причину.",
  },
  en: {
    title: "Name in Ukrainian",
    titleEn: "Name in English",
    save: "Save",
    sent: "The change is sent to the operators for approval.",
    pendingTitle: "A change is waiting for approval",
    rejectedTitle: "The change was not approved",
    withdraw: "Withdraw the change",
    kindChange: "A change to a live application",
    approve: "Approve",
    reject: "Reject",
    reason: "Why it is rejected (the owners will see this)",
    rejectSubmit: "Reject with this reason",
    approved: "is approved.",
    rejected: "is rejected; its owners get the reason.",
  },
} as const;

/** A live application's change on the developers' page /{lang}/developers/{id} (issue 56), the owner's side. */
export class OwnerChangePage {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof labels)[Language];
  readonly pending: Locator;
  readonly rejected: Locator;
  readonly heading: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = labels[language];
    this.pending = page.getByTestId("pending-change");
    this.rejected = page.getByTestId("change-rejected");
    this.heading = page.getByTestId("developer-application").getByRole("heading", { level: 1 });
  }

  async goto(appId: string): Promise<void> {
    await this.page.goto(`/${this.language}/developers/${appId}`);
    await expect(this.heading).toBeVisible();
  }

  /** Renames the application in the page's language and saves: the change waits for the operators. */
  async rename(title: string): Promise<void> {
    const form = this.page.getByTestId("application-form");
    await form.getByLabel(this.language === "en" ? this.text.titleEn : this.text.title, { exact: true }).fill(title);
    await form.getByRole("button", { name: this.text.save }).click();
    await expect(this.page.getByText(this.text.sent).first()).toBeVisible();
    await expect(this.pending).toContainText(this.text.pendingTitle);
    await expect(this.pending.getByTestId("field-change-after")).toContainText(title);
  }
}

/** The console's review queue /{lang}/admin/reviews: a live application's change, shown old → new. */
export class ChangeReviewPage {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = labels[language];
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/admin/reviews`);
    await expect(this.page.getByTestId("review-queue")).toBeVisible();
  }

  /** The queue's card of the change to the application now called `liveTitle`. */
  request(liveTitle: string): Locator {
    return this.page
      .getByTestId("review-request")
      .filter({ has: this.page.getByRole("heading", { name: liveTitle, exact: true }) })
      .filter({ has: this.page.getByTestId("review-change") });
  }

  /** What the card shows changing in one field, old → new. */
  difference(liveTitle: string, field: string): Locator {
    return this.request(liveTitle).locator(`[data-testid="field-change"][data-field="${field}"]`);
  }

  async approve(liveTitle: string): Promise<void> {
    await this.request(liveTitle).getByRole("button", { name: this.text.approve, exact: true }).click();
    await this.page.getByTestId("confirm-action").click();
    await expect(this.page.getByText(this.text.approved).first()).toBeVisible();
    await expect(this.request(liveTitle)).toHaveCount(0);
  }

  async reject(liveTitle: string, reason: string): Promise<void> {
    const card = this.request(liveTitle);
    await card.getByRole("button", { name: this.text.reject, exact: true }).click();
    await card.getByLabel(this.text.reason).fill(reason);
    await card.getByRole("button", { name: this.text.rejectSubmit }).click();
    await expect(this.page.getByText(this.text.rejected).first()).toBeVisible();
    await expect(this.request(liveTitle)).toHaveCount(0);
  }
}
