import type { ImportJobView } from "@kpi-id/contracts";
import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

/** The console's import at /{lang}/admin/import: a CSV checked, then applied, as background jobs. */
export class ConsoleImportPage {
  readonly page: Page;
  readonly language: Language;
  readonly file: Locator;
  readonly check: Locator;
  readonly apply: Locator;
  readonly report: Locator;
  readonly title: Locator;
  readonly progress: Locator;
  /** The live region: the counts while a job runs, then how it ended. */
  readonly status: Locator;
  readonly lines: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.file = page.getByTestId("import-file");
    this.check = page.getByTestId("import-dry-run");
    this.apply = page.getByTestId("import-apply");
    this.report = page.getByTestId("import-report");
    this.title = page.getByTestId("import-report-title");
    this.progress = page.getByTestId("import-progress");
    this.status = page.getByTestId("import-status");
    this.lines = page.getByTestId("import-lines");
  }

  async open(): Promise<void> {
    await this.page.goto(`/${this.language}/admin/import`);
    await expect(this.file).toBeVisible();
  }

  count(outcome: "created" | "updated" | "unchanged" | "rejected"): Locator {
    return this.page.getByTestId(`import-${outcome}`);
  }

  async choose(name: string, csv: string): Promise<void> {
    await this.file.setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
  }

  /**
   * Checks the chosen file and waits for this check to end. Until the check's answer arrives the screen may still
   * show the last job an earlier walk left (done, a dry run too), so the wait is for this job's own report.
   */
  async checkFile(): Promise<void> {
    const answer = this.page.waitForResponse(
      (response) => response.url().endsWith("/api/admin/import/jobs") && response.request().method() === "POST",
    );
    await this.check.click();
    const job = (await (await answer).json()) as ImportJobView;
    const report = this.page.locator(`[data-testid="import-report"][data-job="${job.id}"]`);
    await expect(report).toHaveAttribute("data-status", "done", { timeout: 60_000 });
    await expect(report).toHaveAttribute("data-mode", "dry-run");
  }

  /** Applies the checked file, confirming in the dialog; answers while it runs. */
  async applyFile(): Promise<void> {
    await this.apply.click();
    await this.page.getByTestId("confirm-action").click();
    await expect(this.report).toHaveAttribute("data-mode", "apply");
  }

  /** Sends the file again the way a browser re-sending the POST would, with this page's cookies. */
  async submitAgain(
    csv: string,
    name: string,
    mode: "dry-run" | "apply",
  ): Promise<{ status: number; job: ImportJobView }> {
    const origin = new URL(this.page.url()).origin;
    const response = await this.page.request.post(`${origin}/api/admin/import/jobs`, {
      headers: { origin, "content-type": "application/json" },
      data: { file: Buffer.from(csv).toString("base64"), fileName: name, mode },
    });
    return { status: response.status(), job: (await response.json()) as ImportJobView };
  }

  async latestJob(): Promise<ImportJobView | null> {
    const origin = new URL(this.page.url()).origin;
    const response = await this.page.request.get(`${origin}/api/admin/import/jobs/latest`);
    return ((await response.json()) as { job: ImportJobView | null }).job;
  }
}
