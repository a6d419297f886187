/** Polls `check` every 100 ms until it answers true; throws after `timeoutMs`. Every wait is bounded. */
export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
      if (error instanceof Error && error.message.includes("exited")) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
