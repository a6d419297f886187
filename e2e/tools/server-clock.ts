import type { Page } from "@playwright/test";

/**
 * The worker's server runs with TEST_CLOCK=true (playwright.config.ts): its clock can be moved forward, so a
 * spec watches a sign-in go stale or a Diia request expire without waiting for it in real time
 * (apps/server/src/platform/http/test-clock.ts; refused when NODE_ENV=production).
 */
const serverOrigin = () => `http://localhost:${process.env.E2E_PORT_BASE ?? "3300"}`;

async function changeClock(page: Page, change: { advanceSeconds: number } | { reset: true }): Promise<void> {
  const answer = await page.request.post(`${serverOrigin()}/api/test/clock`, {
    data: change,
    headers: { origin: serverOrigin() },
  });
  if (!answer.ok()) throw new Error(`the test clock answered ${answer.status()}: ${await answer.text()}`);
}

/** Moves the server's clock `seconds` forward, and back to real time once `run` is done (passed or failed). */
export async function withServerClockAdvanced(page: Page, seconds: number, run: () => Promise<void>): Promise<void> {
  await changeClock(page, { advanceSeconds: seconds });
  try {
    await run();
  } finally {
    await changeClock(page, { reset: true });
  }
}
