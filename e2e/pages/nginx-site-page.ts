import type { Page } from "@playwright/test";

/** What the small site behind nginx received (it answers with it as JSON: apps/server/test/support/nginx-site.ts). */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
}

/** A site behind the documented nginx block (docs/nginx-auth-request.md), on its own host name. */
export class NginxSitePage {
  readonly page: Page;
  readonly origin: string;

  constructor(page: Page, origin: string) {
    this.page = page;
    this.origin = origin;
  }

  async open(path: string): Promise<void> {
    await this.page.goto(`${this.origin}${path}`);
  }

  /** The request the site got, as Chromium shows its JSON answer. */
  async received(): Promise<Received> {
    return JSON.parse((await this.page.locator("pre").first().textContent()) ?? "") as Received;
  }

  /** The site's own sign-out link, followed as a person clicks it on a page of the host. */
  async clickSignOut(rd: string): Promise<void> {
    await this.page.evaluate(
      (href) => {
        const link = document.createElement("a");
        link.href = href;
        link.textContent = "Sign out";
        document.body.append(link);
        link.click();
      },
      `/_kpi-id/sign-out?${new URLSearchParams({ rd })}`,
    );
  }

  /** The value of the host's own cookie in this browser, or undefined. */
  async siteCookie(): Promise<string | undefined> {
    const cookies = await this.page.context().cookies(this.origin);
    return cookies.find((cookie) => cookie.name === "__Host-kpi_id_site")?.value;
  }
}
