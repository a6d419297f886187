import type { Page } from "@playwright/test";

/** A JSON POST from a signed-in page of this site, as its own scripts send it; the status and answer. */
export async function postFrom(page: Page, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    { path, body },
  );
}
