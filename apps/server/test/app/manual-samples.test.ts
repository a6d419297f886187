import { rmSync } from "node:fs";
import { type Browser, chromium, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testChromiumLaunchOptions } from "../../../../e2e/chromium.ts";
import { grantAccess } from "../../src/model/access/applications.ts";
import { createApplication } from "../../src/model/apps/service.ts";
import { applyOidcSettings } from "../../src/protocols/oidc/settings.ts";
import { addPerson } from "../support/campus.ts";
import { createListeningTestApp, freePort, type ListeningTestApp } from "../support/listening.ts";
import {
  installedOpenidClientMajor,
  type ManualSample,
  manual,
  manualBlock,
  manualSamples,
  type RunningSample,
  sampleDirectory,
  startSample,
  webDist,
} from "../support/manual-samples.ts";

const username = "o.kovalenko";
const password = "a long passphrase, no rules";
// A name that runs script wherever a sample forgets to escape it.
const fullName = `Олена <img src=x onerror="alert(1)"> Коваленко`;
const signInLink = "Sign in with KPI ID";

/** The page's text, and whether the page grew an element from the name (escaping failed). */
async function shown(page: Page) {
  return { text: (await page.locator("body").textContent()) ?? "", images: await page.locator("img").count() };
}

/** The person at KPI ID's sign-in page (English, from the browser's language): password, then consent if asked. */
async function signInAtKpiId(page: Page, kpiOrigin: string, site: string): Promise<void> {
  await page.waitForURL((url) => url.origin === kpiOrigin);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.origin === site || url.pathname.endsWith("/consent"));
  if (new URL(page.url()).origin !== site) await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => url.origin === site);
}

/**
 * Holds every request of the page to URLs matching `pattern` until `whileHeld` is done, including those a
 * redirect leads to (Playwright's page.route sees only a navigation's first request; the callback is the
 * last of KPI ID's redirects). Through Chromium's own request interception.
 */
async function holdNavigations(page: Page, pattern: string, whileHeld: (url: string) => Promise<void>) {
  const devtools = await page.context().newCDPSession(page);
  devtools.on("Fetch.requestPaused", async ({ requestId, request }) => {
    try {
      await whileHeld(request.url);
    } finally {
      await devtools.send("Fetch.continueRequest", { requestId });
    }
  });
  await devtools.send("Fetch.enable", { patterns: [{ urlPattern: pattern, requestStage: "Request" }] });
}

/**
 * Issue 19: every sample in the integration manual, saved and run exactly as the manual shows it against a
 * live KPI ID, signs a person in through Chromium: the sample's sign-in link (with state), KPI ID's sign-in
 * page, back to the sample, which redeems once and shows the name escaped.
 */
describe("the integration manual's samples, in a browser", () => {
  let kpi: ListeningTestApp;
  let personId: string;
  let browser: Browser;
  const running: RunningSample[] = [];
  const directory = sampleDirectory();

  beforeAll(async () => {
    kpi = await createListeningTestApp("pglite", { env: { WEB_DIST_DIR: webDist() } });
    personId = (await addPerson(kpi.test.app, { username, fullName }, password)).id;
    browser = await chromium.launch(testChromiumLaunchOptions);
  });
  afterAll(async () => {
    for (const sample of running) sample.child.kill();
    await browser?.close();
    await kpi?.test.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("are the same code in the Ukrainian and the English manual", () => {
    for (const { fence, opening } of manualSamples) {
      expect(manualBlock("uk", fence, opening)).toBe(manualBlock("en", fence, opening));
    }
  });

  it("run the OpenID Connect sample with the openid-client the manual says to install", () => {
    for (const lang of ["uk", "en"] as const) {
      expect(/npm install openid-client@(\d+)/.exec(manual(lang))?.[1]).toBe(installedOpenidClientMajor());
    }
  });

  /** Registers the sample as the manual says (its callback on its port) and gives the person access. */
  async function register(sample: ManualSample, site: string) {
    const name = `manual-${sample.file.replace(".", "-")}`;
    const created = await createApplication(kpi.test.app.db, {
      name,
      title: "Розклад",
      callbackUrl: `${site}/kpi-id/callback`,
    });
    if (sample.protocol === "oidc") {
      await applyOidcSettings(kpi.test.app.db, created.application, {
        enabled: true,
        redirectUris: [`${site}${sample.callbackPath}`],
      });
    }
    await grantAccess(kpi.test.app.db, personId, created.application.id);
    return created;
  }

  it.each(manualSamples)(
    "the $name sample signs a person in through Chromium, escaping the name",
    async (sample) => {
      const port = await freePort();
      const site = `http://localhost:${port}`;
      const { application, secret } = await register(sample, site);
      const code = manualBlock("en", sample.fence, sample.opening);
      const env = {
        KPI_ID_URL: kpi.origin,
        KPI_ID_ISSUER: kpi.issuer,
        KPI_ID_APP_ID: application.id,
        KPI_ID_APP_SECRET: secret,
      };
      const started = await startSample(directory, sample, code, env, port);
      running.push(started);
      const context = await browser.newContext({ locale: "en-US" });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });

      try {
        // A callback without a ticket (or code) is shown the sign-in page; KPI ID is not called.
        await page.goto(`${site}${sample.callbackPath}`);
        expect((await shown(page)).text).toContain(signInLink);

        await page.goto(`${site}/`);
        const link = page.getByRole("link", { name: signInLink });
        const href = new URL((await link.getAttribute("href")) ?? "", site);
        let state: string | null = null;
        if (sample.protocol === "ticket") {
          // The ticket samples link to KPI ID's sign-in page with their app id and a fresh state.
          expect(href.origin).toBe(kpi.origin);
          expect(href.searchParams.get("appId")).toBe(application.id);
          state = href.searchParams.get("state");
          expect(state).toMatch(/^[0-9a-f]{32}$/);
        }

        // Login CSRF: the callback KPI ID sends this browser, handed to another browser (which did not start
        // the sign-in), gets the sign-in page there, and the sample does not spend the ticket or code on it.
        let handed = "";
        let otherBrowserSaw = "";
        let callbackAnswer = { status: 0, html: "" };
        const answer = sample.protocol === "ticket" ? "ticketId" : "code";
        const isCallback = (url: string) =>
          new URL(url).pathname === sample.callbackPath && new URL(url).searchParams.has(answer);
        await holdNavigations(page, `${site}${sample.callbackPath}?*`, async (url) => {
          if (!isCallback(url)) return;
          handed = url;
          const other = await browser.newContext({ locale: "en-US" });
          await (await other.newPage()).goto(handed);
          otherBrowserSaw = (await shown(other.pages()[0] as Page)).text;
          await other.close();
        });
        // The person's own browser then reaches the sample; its answer is kept as sent.
        page.on("response", async (response) => {
          if (!isCallback(response.url())) return;
          callbackAnswer = { status: response.status(), html: await response.text() };
        });
        await link.click();
        await signInAtKpiId(page, kpi.origin, site);
        await page.getByText("Hello, ").waitFor();

        expect(otherBrowserSaw).toContain(signInLink);
        expect(otherBrowserSaw).not.toContain("Hello");
        if (state) expect(new URL(handed).searchParams.get("state")).toBe(state);
        // The name as text, and nothing it carries became markup or ran.
        expect(callbackAnswer.status).toBe(200);
        expect(callbackAnswer.html).not.toContain("<img");
        const signedIn = await shown(page);
        expect(signedIn.text).toContain(`Hello, ${fullName}`);
        expect(signedIn.images).toBe(0);
        expect(dialogs).toEqual([]);

        // Redeemed once, by the sample: the same callback again signs no one in.
        await page.goto(handed);
        expect((await shown(page)).text).not.toContain("Hello");
      } catch (error) {
        const at = `${page.url()}\n${await page.content()}`;
        throw new Error(`${String(error)}\nthe page at ${at}\nthe sample printed:\n${started.output()}`);
      } finally {
        await context.close();
      }
    },
    180_000,
  );
});
