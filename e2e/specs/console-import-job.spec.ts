import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsoleImportPage } from "../pages/console-import-page.ts";
import { ConsolePage } from "../pages/console-page.ts";

// Enough lines that the apply is still running while the page is left and the file sent again.
const rows = 1500;

test.describe("the console's import as a background job", () => {
  test("an apply shows its progress, goes on while the page is left, and a second submit joins it", async ({
    page,
  }) => {
    test.slow();
    const run = Date.now().toString(36);
    const csv = [
      "username,full-name,email",
      ...Array.from({ length: rows }, (_, n) => `bulk.${run}.${n},Масова Особа${n},bulk.${run}.${n}@kpi.ua`),
    ].join("\r\n");
    const name = `bulk-${run}.csv`;

    const console = new ConsolePage(page, "en");
    await console.signInWithDiiaThroughApi("employee");
    const importing = new ConsoleImportPage(page, "en");
    await importing.open();
    await importing.choose(name, csv);
    await importing.checkFile();
    await expect(importing.count("created")).toHaveText(String(rows));
    await expect(page.getByTestId("import-will-happen")).toContainText(`new: ${rows}`);
    await expect(importing.lines).toContainText("No line has an error.");

    await importing.applyFile();
    await expect(importing.progress).toBeVisible();
    await expect(importing.status).toContainText(`of ${rows} lines`);
    await expect(importing.check).toBeDisabled();
    const started = await importing.latestJob();
    expect(started?.mode).toBe("apply");

    // The browser re-sends the same file while the job runs: it joins the job, no second one starts.
    const again = await importing.submitAgain(csv, name, "apply");
    expect(again.status).toBe(200);
    expect(again.job.id).toBe(started?.id);

    // Leaving the page does not stop it; coming back shows it again.
    await console.open();
    await importing.open();
    await expect(importing.title).toContainText(name);
    await expect(importing.report).toHaveAttribute("data-status", "done", { timeout: 60_000 });
    await expect(importing.count("created")).toHaveText(String(rows));
    await expect(importing.count("unchanged")).toHaveText("0");
    expect((await importing.latestJob())?.id).toBe(started?.id);
    // The check of this file is not offered for applying again without choosing it anew.
    await expect(importing.apply).toHaveCount(0);
    await expectNoAxeViolations(page, "import done");
  });
});
