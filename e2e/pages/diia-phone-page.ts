import type { Locator, Page } from "@playwright/test";

/** The sandbox's demo people on the phone page (sandbox/src/diia/people.ts): the radio values. */
export type DiiaPhonePerson =
  | "student"
  | "employee"
  | "both"
  | "newcomer"
  | "stranger"
  | "untrusted"
  | "revoked"
  | "revoked-ocsp"
  | "shape-signer-not-first"
  | "shape-signer-absent"
  | "shape-cades-x-long";

/** The Diia stand-in's "phone" (SANDBOX_DIIA_PORT): the consent page a deep link opens. */
export class DiiaPhonePage {
  readonly page: Page;
  readonly requestingService: Locator;
  readonly confirm: Locator;
  readonly decline: Locator;
  readonly result: Locator;

  constructor(page: Page) {
    this.page = page;
    this.requestingService = page.getByTestId("requesting-service");
    this.confirm = page.getByRole("button", { name: "Підтвердити" });
    this.decline = page.getByRole("button", { name: "Відхилити" });
    this.result = page.getByTestId("phone-result");
  }

  static origin(): string {
    return `http://localhost:${process.env.SANDBOX_DIIA_PORT ?? 3302}`;
  }

  async open(deepLink: string): Promise<void> {
    await this.page.goto(deepLink);
    await this.requestingService.waitFor();
  }

  async signAs(person: DiiaPhonePerson): Promise<void> {
    await this.page.locator(`input[name="person"][value="${person}"]`).check();
    await this.confirm.click();
    await this.result.waitFor();
  }
}
