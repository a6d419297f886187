import { expect, type Page } from "@playwright/test";

/**
 * Closes the toasts on screen with their close buttons, as a person would, and waits until they have gone. axe
 * reads a toast fading in or out as faint text, so a walk checks the page without one; closing it instead of
 * waiting out its 4 s (toaster.tsx) saves a walk that much each time (issue 41).
 */
export async function closeToasts(page: Page): Promise<void> {
  // A toast already leaving (data-removed) is not closed again: it is gone within its 0.2 s exit.
  const closeButtons = page.locator("[data-sonner-toast]:not([data-removed='true']) [data-close-button]");
  for (let attempt = 0; attempt < 10 && (await closeButtons.count()) > 0; attempt++) {
    // One that leaves by itself between the count and the click is what was wanted anyway.
    await closeButtons
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  }
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
  // The pointer leaves the toaster: sonner holds a toast on screen while the pointer is over its list.
  await page.mouse.move(0, 0);
}

/**
 * Waits for the toast an action answers with, then closes it: the console shows its toast after the screen has read
 * its data again, so a test that waited for the new data alone could close the toasts before this one came, and axe
 * would then meet it fading in.
 */
export async function closeTheAnswersToast(page: Page): Promise<void> {
  await expect(page.locator("[data-sonner-toast]").first()).toBeVisible();
  await closeToasts(page);
}
