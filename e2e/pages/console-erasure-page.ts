import { expect, type Locator, type Page } from "@playwright/test";

/** The person screen's "Erase personal data" section and its dialog (an admin's erasure on request). */
export class ConsoleErasure {
  readonly page: Page;
  readonly section: Locator;
  readonly open: Locator;
  readonly dialog: Locator;
  readonly username: Locator;
  readonly submit: Locator;
  readonly done: Locator;
  readonly counts: Locator;
  readonly erasedNotice: Locator;

  constructor(page: Page) {
    this.page = page;
    this.section = page.getByTestId("person-erasure");
    this.open = page.getByTestId("erase-open");
    this.dialog = page.getByRole("dialog");
    this.username = page.getByTestId("erase-confirm-username");
    this.submit = page.getByTestId("erase-submit");
    this.done = page.getByTestId("erasure-done");
    this.counts = page.getByTestId("erased-counts");
    this.erasedNotice = page.getByTestId("person-erased");
  }

  /** Opens the dialog: the erase button stays off until the username is typed again. */
  async start(): Promise<void> {
    await this.open.click();
    await expect(this.dialog).toBeVisible();
    await expect(this.submit).toBeDisabled();
  }

  async confirmAs(username: string): Promise<void> {
    await this.username.fill(username);
    await expect(this.submit).toBeEnabled();
    await this.submit.click();
    await expect(this.done).toBeVisible();
  }
}
