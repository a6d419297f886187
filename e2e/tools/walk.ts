import type { Browser, Page, TestInfo } from "@playwright/test";
import { signedInOnApps } from "./api-sign-in.ts";

/** The widths every walk looks at a screen in: a phone's and a laptop's. */
export const widths = [390, 1280] as const;

/** A person signed in with a password (through the API) in a browser of their own, on the apps screen. */
export async function personBrowser(
  browser: Browser,
  language: "uk" | "en",
  person: { username: string; password: string },
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signedInOnApps(page, language, person);
  return { context, page };
}

/** The page as it is now at a phone's and a laptop's width, for a person to look at (never compared). */
export async function photograph(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
