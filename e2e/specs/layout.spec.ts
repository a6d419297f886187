import type { Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";

/** The left edges, in px, of the header's first item, the page's heading and the footer's first item. */
async function leftEdges(page: Page) {
  const left = async (selector: string) => (await page.locator(selector).first().boundingBox())?.x;
  await page.getByRole("heading", { level: 1 }).waitFor();
  return {
    header: await left("header > div > *"),
    heading: await left("main h1"),
    footer: await left("footer > div > *"),
  };
}

test.describe("one container for every layout", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("header, footer, apps, wizard and content pages share one left edge at 1280 px", async ({ page }) => {
    await signInThroughApi(page, "uk", demoUsers.student);
    const edges: Record<string, Awaited<ReturnType<typeof leftEdges>>> = {};
    for (const path of ["/uk/apps", "/uk/button-wizard", "/uk/faq", "/uk/privacy-policy", "/en/terms-of-use"]) {
      await page.goto(path);
      edges[path] = await leftEdges(page);
    }
    const all = Object.values(edges).flatMap((edge) => [edge.header, edge.heading, edge.footer]);
    // (1280 − 1024) / 2 + 24 px of side padding.
    expect(all, JSON.stringify(edges)).toEqual(all.map(() => 152));
  });

  test("the wizard's snippets stay inside their cards at 390 px", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/uk/button-wizard");
    const snippets = page.locator("pre");
    await snippets.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const snippet of await snippets.all()) {
      const box = await snippet.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
  });
});
