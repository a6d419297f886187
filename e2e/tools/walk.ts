import type { Browser, Page, TestInfo } from "@playwright/test";
import { signedInOnApps } from "./api-sign-in.ts";

/** The widths every walk looks at a screen in: a phone's and a laptop's. */
export const widths = [390, 1280] as const;

/**
 * The views an accessibility walk checks each screen in: both languages at a laptop's width, and once more as a
 * phone's layout, in Ukrainian, the service's first language. The width changes the layout; the language changes
 * only the words, which the laptop's two views check (issue 75: three views of each screen where there were four).
 */
export const views = [
  { language: "uk", width: 1280 },
  { language: "en", width: 1280 },
  { language: "uk", width: 390 },
] as const;

/** The viewport of a view's width: a phone's height below 768 px, a laptop's above. */
export function sizeFor(width: number) {
  return { width, height: width < 768 ? 844 : 900 };
}

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
