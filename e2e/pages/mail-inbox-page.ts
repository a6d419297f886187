import { expect, type Locator, type Page } from "@playwright/test";

/** The sandbox mail stand-in's inbox (SANDBOX_MAIL_PORT): every message KPI ID sent in this run. */
export class MailInboxPage {
  readonly page: Page;
  readonly messageText: Locator;

  constructor(page: Page) {
    this.page = page;
    this.messageText = page.getByTestId("mail-text");
  }

  static origin(): string {
    return `http://localhost:${process.env.SANDBOX_MAIL_PORT ?? 3304}`;
  }

  /** How many messages the inbox holds now (so a walk can wait for one newer than that). */
  async count(): Promise<number> {
    const answer = await this.page.request.get(`${MailInboxPage.origin()}/api/messages`);
    return ((await answer.json()) as { messages: unknown[] }).messages.length;
  }

  /**
   * Opens the inbox page, waits until a message with this subject to this address arrives (newer than
   * `after` messages), opens it as a person would and answers its plain text.
   */
  async open(to: string, subject: string, after = 0): Promise<string> {
    await expect
      .poll(async () => {
        const answer = await this.page.request.get(`${MailInboxPage.origin()}/api/messages`);
        const { messages } = (await answer.json()) as { messages: { to: string[]; subject: string }[] };
        return messages.slice(after).some((mail) => mail.to.includes(to) && mail.subject === subject);
      })
      .toBe(true);
    await this.page.goto(`${MailInboxPage.origin()}/`);
    // Newest first: the first link with this subject to this address is the one just sent.
    await this.page
      .getByRole("listitem")
      .filter({ hasText: to })
      .getByRole("link", { name: subject, exact: true })
      .first()
      .click();
    await expect(this.page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
    return (await this.messageText.textContent()) ?? "";
  }

  /** The reset link a message's text carries. */
  static resetLinkIn(text: string): string {
    const link = /https?:\/\/\S+\/reset-password#token=[\w-]+/.exec(text)?.[0];
    expect(link, `a reset link in: ${text}`).toBeTruthy();
    return link ?? "";
  }
}
