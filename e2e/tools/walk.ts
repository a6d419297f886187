import type { Browser } from "@playwright/test";
import { signedInOnApps } from "./api-sign-in.ts";

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
