import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";

/**
 * Screenshots for a person to look at, never compared with anything: the walks photograph every screen they pass
 * at a phone's and a laptop's width. `npm test` takes none, because no one looks at a CI run's, and taking them was
 * the suite's own work (a full-page capture and its PNG, the page laid out again at each width): docs/testing.md
 * gives the measured cost (issue 75). To look at the screens a change touched:
 *
 *   E2E_SCREENSHOTS=/tmp/shots npx playwright test -c e2e/playwright.config.ts e2e/specs/guests.spec.ts
 *
 * writes them into /tmp/shots; `E2E_SCREENSHOTS=1` into each test's own output folder (`.tmp/e2e-data-…-results`).
 */
const setting = process.env.E2E_SCREENSHOTS ?? "";
export const photographing = setting !== "" && setting !== "0";

/** The widths every walk looks at a screen in: a phone's and a laptop's. */
export const widths = [390, 1280] as const;

/** The viewport of a view's width: a phone's height below 768 px, a laptop's above. */
export function sizeFor(width: number) {
  return { width, height: width < 768 ? 844 : 900 };
}

function fileFor(testInfo: TestInfo, name: string): string {
  const file = `${name.replace(/[^a-z0-9.-]+/gi, "-")}.png`;
  if (setting === "1") return testInfo.outputPath(file);
  mkdirSync(setting, { recursive: true });
  return join(setting, file);
}

/** The whole page as it is now (or only `part` of it), when photographing. */
export async function photographNow(page: Page, testInfo: TestInfo, name: string, part?: Locator): Promise<void> {
  if (!photographing) return;
  const path = fileFor(testInfo, name);
  await (part ? part.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
}

/**
 * The page (or only `part` of it) at a phone's and a laptop's width, when photographing; then back at `backTo` px,
 * the width the walk goes on at.
 */
export async function photograph(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { part?: Locator; backTo?: number } = {},
): Promise<void> {
  if (!photographing) return;
  for (const width of widths) {
    await page.setViewportSize(sizeFor(width));
    await photographNow(page, testInfo, `${name}-${width}`, options.part);
  }
  await page.setViewportSize(sizeFor(options.backTo ?? 1280));
}
