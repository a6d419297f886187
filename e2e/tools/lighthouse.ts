// Lighthouse (mobile preset, its simulated slow 4G and 4x CPU) on the three pages the performance goals
// name, and the slow-phone measurement of when the login form is visible. Run against a running product
// with the demo campus (npm start, or the e2e server):
//   BASE_URL=http://localhost:3000 node e2e/tools/lighthouse.ts
// (LIGHTHOUSE_REPORT_DIR=/some/dir also writes each page's whole Lighthouse report there.)
// Prints the figures (docs/performance.md records them); asserts nothing.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type CDPSession, chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumLaunchOptions } from "../chromium.ts";

const baseUrl = process.env.BASE_URL ?? "http://localhost:3000";
const student = { username: "student", password: "student-demo-2026" };
const categories = ["performance", "accessibility", "best-practices"] as const;
/** The slow phone of the issue: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trips, CPU 4x slower. */
const slowPhone = { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8, cpu: 4 };

/** A session cookie of the demo student, signed in the way the web app does it. */
async function signInCookie(): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
      body: JSON.stringify(body),
    });
  const { sessionId } = (await (await post("/api/auth", student)).json()) as { sessionId: string };
  const internal = await post("/api/auth/internal", { sessionId });
  const cookie = internal.headers.getSetCookie().find((line) => line.includes("kpi_id_session="));
  if (!cookie) throw new Error(`sign-in failed: ${internal.status}`);
  return cookie.split(";")[0] ?? "";
}

/**
 * The browser's cookie jar holds the session for a signed-in page, or nothing. An extra Cookie header is
 * not enough: it reached the page request only, so the web app's own calls went without the session and
 * "/uk/apps" was measured as the login page it was sent to. Lighthouse leaves the jar alone when told not
 * to reset storage, so the cache is emptied here instead (every run starts cold).
 */
async function prepareBrowser(port: number, cookie: string | undefined): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const [context] = browser.contexts();
    if (!context) throw new Error("the Lighthouse browser has no context");
    await context.clearCookies();
    if (cookie) {
      const [name = "", value = ""] = cookie.split("=");
      await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: "Lax" }]);
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const session = await context.newCDPSession(page);
    await session.send("Network.clearBrowserCache");
    await session.detach();
  } finally {
    // Leaves the browser running: this only drops Playwright's connection.
    await browser.close();
  }
}

async function lighthouseScores(port: number, path: string, cookie?: string) {
  await prepareBrowser(port, cookie);
  const result = await lighthouse(
    `${baseUrl}${path}`,
    { port, logLevel: "error", output: "json", onlyCategories: [...categories], disableStorageReset: true },
    undefined,
  );
  if (!result) throw new Error(`no Lighthouse result for ${path}`);
  const { lhr } = result;
  // LIGHTHOUSE_REPORT_DIR keeps each page's whole report (its request chains and main-thread work explain a score).
  const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
  if (reportDir) {
    await mkdir(reportDir, { recursive: true });
    await writeFile(join(reportDir, `${path.replace(/\W+/g, "-")}.json`), JSON.stringify(lhr));
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? "?";
  const failed = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary")
    .map((audit) => audit.id);
  return {
    path,
    // Where the page ended up and whether it was the signed-in screen: a figure of the wrong page is no figure.
    finalUrl: lhr.finalDisplayedUrl,
    signedIn: cookie !== undefined && new URL(lhr.finalDisplayedUrl).pathname === path,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    failed,
  };
}

async function throttle(session: CDPSession): Promise<void> {
  await session.send("Network.enable");
  await session.send("Network.setCacheDisabled", { cacheDisabled: true });
  await session.send("Network.emulateNetworkConditions", { offline: false, ...slowPhone });
  await session.send("Emulation.setCPUThrottlingRate", { rate: slowPhone.cpu });
}

/** Milliseconds from the start of navigation until the login form's fields are visible, on the slow phone. */
async function loginFormVisibleMs(): Promise<number[]> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  const runs: number[] = [];
  try {
    for (let run = 0; run < 3; run += 1) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      await throttle(await context.newCDPSession(page));
      await page.goto(`${baseUrl}/uk/`, { waitUntil: "commit" });
      await page.locator("#username").waitFor({ state: "visible", timeout: 60_000 });
      await page.locator("#password").waitFor({ state: "visible" });
      runs.push(Math.round(await page.evaluate(() => performance.now())));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return runs;
}

const chrome = await chromeLauncher.launch({
  chromePath: chromiumLaunchOptions.executablePath,
  chromeFlags: ["--headless=new", ...chromiumLaunchOptions.args],
});
try {
  const cookie = await signInCookie();
  for (const [path, signedIn] of [
    ["/uk/", false],
    ["/uk/apps", true],
    ["/uk/diia", false],
  ] as const) {
    const scores = await lighthouseScores(chrome.port, path, signedIn ? cookie : undefined);
    console.log(JSON.stringify(scores));
  }
} finally {
  chrome.kill();
}
const runs = await loginFormVisibleMs();
console.log(JSON.stringify({ loginFormVisibleMs: runs, median: [...runs].sort((a, b) => a - b)[1] }));
