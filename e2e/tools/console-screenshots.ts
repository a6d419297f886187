// Screenshots of the console's signing keys and service screens and the person screen's second factor
// section, in both languages at 390 px and 1280 px, for a person to look at. The console needs a strong
// sign-in, so the admin signs in with Diia on the sandbox phone. Run against a running product:
//   BASE_URL=http://localhost:3300 SANDBOX_DIIA_PORT=3302 OUT_DIR=/tmp/kpi-shots node e2e/tools/console-screenshots.ts
// The files are for review only and are never committed.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../chromium.ts";
import { ConsolePage } from "../pages/console-page.ts";

const baseURL = process.env.BASE_URL ?? "http://localhost:3300";
const outDir = process.env.OUT_DIR ?? "/tmp/kpi-shots";
const widths = [390, 1280];
const languages = ["uk", "en"] as const;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(400);
}

const shots: { name: string; run: (page: Page, language: string) => Promise<void> }[] = [
  { name: "console-keys", run: (page, lang) => page.goto(`/${lang}/admin/keys`).then(() => settle(page)) },
  {
    name: "console-keys-confirm",
    run: async (page, lang) => {
      await page.goto(`/${lang}/admin/keys`);
      await page.getByTestId("oidc-keys").getByRole("button").click();
      await page.getByRole("dialog").waitFor();
      await settle(page);
    },
  },
  { name: "console-service", run: (page, lang) => page.goto(`/${lang}/admin/service`).then(() => settle(page)) },
  {
    name: "console-person-recovery",
    run: async (page, lang) => {
      await page.goto(`/${lang}/admin?q=${encodeURIComponent(process.env.SHOT_PERSON ?? "Бондар")}`);
      await page.getByTestId("people-table").getByRole("link").first().click();
      await page.getByTestId("person-recovery").waitFor();
      await settle(page);
    },
  },
];

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    for (const language of languages) {
      for (const width of widths) {
        const context = await browser.newContext({ baseURL, viewport: { width, height: width < 768 ? 844 : 900 } });
        context.setDefaultTimeout(60_000);
        const page = await context.newPage();
        await new ConsolePage(page, language).signInWithDiiaThroughApi("employee");
        for (const shot of shots) {
          await shot.run(page, language);
          const file = join(outDir, `${shot.name}-${language}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(file);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

await main();
