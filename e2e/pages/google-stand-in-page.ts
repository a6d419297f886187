import type { Locator, Page } from "@playwright/test";

/** The demo Google accounts on the sandbox's account page (sandbox/src/google/accounts.ts). */
export const googleDemoAccounts = {
  student: "Олена Коваленко",
  employee: "Андрій Мельник",
  unknownWorkspace: "Василь Ткаченко",
  stranger: "Тарас Гриценко",
  unverified: "Олена К. (unverified)",
} as const;

export type GoogleDemoAccount = keyof typeof googleDemoAccounts;

/** Google's "Choose an account" screen as the sandbox stand-in shows it (SANDBOX_GOOGLE_PORT). */
export class GoogleStandInPage {
  readonly page: Page;
  readonly heading: Locator;
  readonly cancel: Locator;

  constructor(page: Page) {
    this.page = page;
    this.heading = page.getByRole("heading", { name: "Choose an account" });
    this.cancel = page.getByRole("button", { name: "Cancel" });
  }

  /** The stand-in's origin: http://localhost:{SANDBOX_GOOGLE_PORT}. */
  static origin(): string {
    return `http://localhost:${process.env.SANDBOX_GOOGLE_PORT ?? 3301}`;
  }

  account(which: GoogleDemoAccount): Locator {
    const name = googleDemoAccounts[which].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.page.getByRole("button", { name: new RegExp(`^${name} `) });
  }

  async waitForIt(): Promise<void> {
    await this.page.waitForURL(`${GoogleStandInPage.origin()}/interaction/**`);
    await this.heading.waitFor();
  }

  async choose(which: GoogleDemoAccount): Promise<void> {
    await this.waitForIt();
    await this.account(which).click();
  }
}
