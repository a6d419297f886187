import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "@playwright/test";
import { ConsolePage } from "../pages/console-page.ts";
import { postFrom } from "./post-from.ts";

/** A demo application's id, as the worker's server wrote it beside its database when it seeded the campus. */
export function demoApplicationId(name: string): string {
  const apps = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR ?? "", "demo-apps.json"), "utf8")) as Record<
    string,
    { id: string }
  >;
  const found = apps[name]?.id;
  if (!found) throw new Error(`demo-apps.json has no ${name}`);
  return found;
}

/**
 * The operator lets affiliates (guests and visitors) into a demo application with an access rule, as docs/visitors.md
 * tells them to, from the console's API signed in with Diia. A rule already there (an earlier test) is fine. No demo
 * person is an affiliate, so the other specs' lists of applications do not change.
 */
export async function letAffiliatesInto(browser: Browser, applicationName: string): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await new ConsolePage(page, "uk").signInWithDiiaThroughApi("employee");
    const answer = await postFrom(page, `/api/admin/applications/${demoApplicationId(applicationName)}/rules`, {
      affiliation: "affiliate",
    });
    if (answer.status !== 200 && answer.status !== 409) {
      throw new Error(`the access rule was refused (${answer.status}): ${JSON.stringify(answer.json)}`);
    }
  } finally {
    await context.close();
  }
}
