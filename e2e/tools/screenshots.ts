// Screenshots of every screen in both languages at 390 px and 1280 px, for a
// person to look at. Run against a running product:
//   BASE_URL=http://localhost:3300 OUT_DIR=/tmp/kpi-shots node e2e/tools/screenshots.ts
// The files are for review only and are never committed. One shot after another, with long timeouts and
// one retry each, so a busy machine slows the run down instead of ending it; the shots that still fail are
// listed at the end and make the exit code 1.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../chromium.ts";

const baseUrl = process.env.BASE_URL ?? "http://localhost:3300";
const outDir = process.env.OUT_DIR ?? "/tmp/kpi-shots";
const only = process.env.ONLY;
const widths = [390, 1280];
const languages = ["uk", "en"] as const;

type Shot = { name: string; signedIn?: boolean; run: (page: Page, language: string) => Promise<void> };

const shots: Shot[] = [
  { name: "login", run: (page, lang) => open(page, `/${lang}/`) },
  {
    name: "login-invalid",
    run: async (page, lang) => {
      await open(page, `/${lang}/`);
      await page.locator("#username").fill("student");
      await page.locator("#password").fill("wrong-password");
      await page.locator("button[type=submit]").click();
      await page.getByTestId("invalid-credentials").waitFor();
    },
  },
  { name: "login-google-error", run: (page, lang) => open(page, `/${lang}/?google_auth_error=true`) },
  { name: "diia", run: (page, lang) => open(page, `/${lang}/diia`, 2500) },
  {
    name: "diia-stopped",
    run: async (page, lang) => {
      // The state after unscanned codes or a failed fetch: polling stops and a new code is offered.
      await page.route("**/api/diia/app-link", (route) => route.fulfill({ status: 503, body: "{}" }));
      await open(page, `/${lang}/diia`, 800);
      await page.unroute("**/api/diia/app-link");
    },
  },
  {
    name: "diia-signing-in",
    run: async (page, lang) => {
      // Diia reported the scan and the session exchange is pending: the full-screen spinner.
      await page.route("**/api/diia/check-request*", (route) =>
        route.fulfill({ json: { status: "Finished", sessionId: "screenshot" } }),
      );
      // Never answered while the screenshot is taken; the context closes it afterwards.
      await page.route("**/api/auth/internal", () => new Promise<void>(() => undefined));
      await page.goto(`${baseUrl}/${lang}/diia`);
      await page.waitForTimeout(1500);
      await page.unroute("**/api/diia/check-request*");
    },
  },
  // Issue 19: the application's sign-in link, checked before sign-in (an unknown appId is a real lookup).
  {
    name: "login-unknown-app",
    run: (page, lang) => open(page, `/${lang}/?appId=00000000-0000-4000-8000-000000000000`),
  },
  {
    name: "login-unregistered-redirect",
    run: async (page, lang) => {
      // What KPI ID answers for a registered app with a redirectUri it never registered.
      await page.route("**/api/app-link*", (route) =>
        route.fulfill({ json: { known: true, redirectUriRegistered: false } }),
      );
      await open(
        page,
        `/${lang}/?appId=00000000-0000-4000-8000-000000000000&redirectUri=https%3A%2F%2Fevil.example%2F`,
      );
    },
  },
  { name: "forgot-password", run: (page, lang) => open(page, `/${lang}/forgot-password`) },
  { name: "forgot-password-email", run: (page, lang) => open(page, `/${lang}/forgot-password?via=email`) },
  {
    name: "forgot-password-email-sent",
    run: async (page, lang) => {
      await open(page, `/${lang}/forgot-password?via=email`);
      // A new address each run: three links an hour per address, then the page says to wait.
      await page.locator("input[type=email]").fill(`nobody-${Date.now()}@example.org`);
      await page.locator("button[type=submit]").click();
      await page.getByTestId("recovery-sent").waitFor();
    },
  },
  { name: "forgot-password-diia", run: (page, lang) => open(page, `/${lang}/forgot-password?via=diia`, 2500) },
  { name: "reset-password-invalid", run: (page, lang) => open(page, `/${lang}/reset-password#token=used`) },
  {
    name: "reset-password",
    run: async (page, lang) => {
      // A link's page as its holder sees it, with a weak password typed: the meter says why.
      await page.route("**/api/recovery/check", (route) =>
        route.fulfill({ json: { username: "student", fullName: "Олена Коваленко" } }),
      );
      await open(page, `/${lang}/reset-password#token=screenshot`);
      await page.locator("input[name=new-password]").fill("olena2026");
      await page.getByTestId("strength-meter").locator("ul, p.text-destructive").first().waitFor();
      await page.unroute("**/api/recovery/check");
    },
  },
  { name: "faq", run: (page, lang) => open(page, `/${lang}/faq`) },
  { name: "button-wizard", run: (page, lang) => open(page, `/${lang}/button-wizard`, 800) },
  { name: "privacy-policy", run: (page, lang) => open(page, `/${lang}/privacy-policy`) },
  { name: "terms-of-use", run: (page, lang) => open(page, `/${lang}/terms-of-use`) },
  { name: "not-found", run: (page, lang) => open(page, `/${lang}/no-such-page`) },
  { name: "auth-success", run: (page, lang) => open(page, `/${lang}/auth-success`, 900) },
  { name: "google-auth", run: (page) => open(page, "/google-auth", 300) },
  { name: "apps", signedIn: true, run: (page, lang) => open(page, `/${lang}/apps`) },
  {
    name: "apps-redirect-error",
    signedIn: true,
    run: (page, lang) => open(page, `/${lang}/apps?appId=unknown-app`),
  },
  {
    name: "apps-redirect-uri-error",
    signedIn: true,
    run: async (page, lang) => {
      // Where /api/app-redirect sends a person whose app named an unregistered redirectUri.
      const href = (await page.getByTestId("app-card").first().getAttribute("href")) ?? "";
      const appId = new URLSearchParams(href.split("?")[1]).get("appId") ?? "";
      await open(page, `/${lang}/apps?appId=${appId}&refused=redirectUri`);
    },
  },
  {
    name: "my-data",
    signedIn: true,
    run: async (page, lang) => {
      await open(page, `/${lang}/apps`);
      await page.locator("main p button").first().click();
      await page.getByTestId("my-data").waitFor();
      await page.waitForTimeout(300);
    },
  },
  { name: "account", signedIn: true, run: (page, lang) => open(page, `/${lang}/account`, 800) },
  {
    name: "account-password",
    signedIn: true,
    run: async (page, lang) => {
      await open(page, `/${lang}/account`, 800);
      await page.getByTestId("method-password").getByRole("button").click();
      await page.locator("input[name=new-password]").fill("correct horse battery staple");
      await page.getByTestId("strength-meter").waitFor();
      await page.waitForTimeout(800);
    },
  },
  {
    name: "account-reauth",
    signedIn: true,
    run: async (page, lang) => {
      // The server's answer to a stale sign-in, so the dialog shows without waiting 10 minutes.
      await page.route("**/api/account/sessions/end-others", (route) =>
        route.fulfill({ status: 403, json: { code: "auth.reauth_required", message: "reauth" } }),
      );
      await open(page, `/${lang}/account`, 800);
      await page.getByTestId("account-sessions").getByRole("button").first().click();
      await page.getByRole("dialog").waitFor();
      await page.waitForTimeout(300);
      await page.unroute("**/api/account/sessions/end-others");
    },
  },
];

/** Generous: signed-in pages on a machine shared with other work have taken over 30 s to settle. */
const actionTimeout = Number(process.env.SHOT_TIMEOUT_MS ?? 120_000);

async function open(page: Page, path: string, settle = 400): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  // Polling screens (Diia) never go idle; the wait is only a chance to settle.
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(settle);
}

async function signIn(page: Page, language: string): Promise<void> {
  await page.goto(`${baseUrl}/${language}/`);
  await page.locator("#username").fill(process.env.SHOT_USER ?? "student");
  await page.locator("#password").fill(process.env.SHOT_PASSWORD ?? "student-demo-2026");
  await page.locator("button[type=submit]").click();
  await page.waitForURL(/\/apps/);
}

async function newPage(browser: Browser, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 } });
  context.setDefaultTimeout(actionTimeout);
  context.setDefaultNavigationTimeout(actionTimeout);
  return { context, page: await context.newPage() };
}

/** One shot in a fresh browser context (signed in first when it needs it); throws what went wrong. */
async function take(browser: Browser, shot: Shot, language: string, width: number): Promise<string> {
  const { context, page } = await newPage(browser, width);
  try {
    if (shot.signedIn) await signIn(page, language);
    await shot.run(page, language);
    const file = join(outDir, `${shot.name}-${language}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true, timeout: actionTimeout });
    return file;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const browser: Browser = await chromium.launch(chromiumLaunchOptions);
  const failed: string[] = [];
  try {
    for (const language of languages) {
      for (const width of widths) {
        for (const shot of shots) {
          if (only && !shot.name.includes(only)) continue;
          const label = `${shot.name}-${language}-${width}`;
          let lastError: unknown;
          for (let attempt = 1; attempt <= 2; attempt++) {
            try {
              console.log(await take(browser, shot, language, width));
              lastError = undefined;
              break;
            } catch (error) {
              lastError = error;
              console.error(`${label}: attempt ${attempt} failed: ${String(error).split("\n")[0]}`);
            }
          }
          if (lastError) failed.push(label);
        }
      }
    }
  } finally {
    await browser.close();
  }
  if (failed.length > 0) {
    console.error(`not taken: ${failed.join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
