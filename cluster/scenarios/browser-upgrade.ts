import { join } from "node:path";
import { createPasswordHasher, freePort } from "@kpi-id/server/testing";
import { chromium, type Response } from "@playwright/test";
import { chromiumLaunchOptions } from "../../e2e/chromium.ts";
import { AppsPage } from "../../e2e/pages/apps-page.ts";
import { LoginPage } from "../../e2e/pages/login-page.ts";
import { createClusterDatabase, seedClusterDatabase } from "../lib/database.ts";
import { type Instance, instanceEnv, startInstance, stopInstance } from "../lib/instances.ts";
import { type RunningNginx, startNginx } from "../lib/nginx.ts";
import { expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { sleep } from "../lib/wait.ts";
import { buildWebReleases } from "../lib/web-builds.ts";
import type { ClusterContext } from "./context.ts";

const settleMs = 1_500;
const person = { username: "browser-upgrade", password: "browser upgrade passphrase", fullName: "Оновлення Браузера" };

/**
 * A rolling upgrade seen from a browser: a page loaded from the previous release asks, after every instance
 * runs the new one, for a lazy chunk of its own build (the My data dialog). Two instances behind nginx serve
 * the previous release's web app; each is drained, stopped and started on the new release's dist/ (its build
 * published beside the previous one, as `npm run build` and the image do), and put back. Then the page,
 * never reloaded, opens My data: the dialog must show, and every script it asked for must be answered.
 */
export async function browserAcrossUpgrade(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport("a page loaded before a rolling upgrade opens a lazy screen after it");
  const closers: (() => Promise<void>)[] = [];
  try {
    const releases = await buildWebReleases(context.workDir);
    const dialogChunk = (assets: string[]) => assets.find((asset) => /\/my-data-dialog-[\w-]+\.js$/.test(asset));
    const oldDialog = dialogChunk(releases.previousAssets);
    expect(report, oldDialog !== undefined, "the previous build has no my-data-dialog chunk");
    expect(
      report,
      oldDialog !== undefined && !releases.nextAssets.includes(oldDialog),
      `the new release's build kept the dialog's chunk name (${oldDialog}): the upgrade changed nothing to fetch`,
    );
    report.notes.push(
      `web releases: ${releases.previousAssets.length} and ${releases.nextAssets.length} assets; My data's chunk ${oldDialog} → ${dialogChunk(releases.nextAssets)}`,
    );

    const database = await createClusterDatabase(context.databaseAdminUrl);
    closers.unshift(database.drop);
    const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await seedClusterDatabase(database.url, hasher, [person]);
    const ports = [await freePort(), await freePort()];
    const nginxPort = await freePort();
    const origin = `http://127.0.0.1:${nginxPort}`;
    const env = instanceEnv({ publicUrl: origin, databaseUrl: database.url, diia: context.diia.env });
    const start = (index: number, webDist: string) =>
      startInstance(
        `browser-${index}`,
        ports[index] ?? 0,
        { ...env, WEB_DIST_DIR: webDist, DATA_DIR: join(context.workDir, `browser-${index}`) },
        context.workDir,
      );
    const instances: Instance[] = [await start(0, releases.previous), await start(1, releases.previous)];
    closers.unshift(async () => {
      await Promise.all(instances.map(stopInstance));
    });
    const addresses = instances.map((instance) => instance.address);
    const nginx: RunningNginx = await startNginx(join(context.workDir, "nginx-browser"), nginxPort, addresses);
    closers.unshift(nginx.stop);

    const browser = await chromium.launch(chromiumLaunchOptions);
    closers.unshift(() => browser.close());
    const page = await browser.newPage({ baseURL: origin });
    const assetAnswers: { url: string; status: number; afterUpgrade: boolean }[] = [];
    let upgraded = false;
    page.on("response", (response: Response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith("/assets/"))
        assetAnswers.push({ url: path, status: response.status(), afterUpgrade: upgraded });
    });
    const login = new LoginPage(page, "en");
    await login.goto();
    await login.signIn(person.username, person.password);
    const apps = new AppsPage(page, "en");
    await page.waitForURL(apps.url(), { timeout: 30_000 });
    await apps.myDataLink.waitFor({ timeout: 30_000 });
    report.sent += assetAnswers.length;
    expect(
      report,
      !assetAnswers.some((answer) => answer.url.endsWith(oldDialog ?? "-")),
      "the dialog's chunk was fetched before the upgrade: opening it afterwards would prove nothing",
    );

    // The rolling upgrade, one instance at a time, the page left open.
    for (const index of instances.keys()) {
      const old = instances[index];
      if (!old) continue;
      await nginx.setUpstreams(addresses.filter((address) => address !== old.address));
      await sleep(settleMs);
      await stopInstance(old);
      instances[index] = await start(index, releases.next);
      await nginx.setUpstreams(addresses);
      await sleep(settleMs);
    }
    upgraded = true;
    const entryNow = await (await fetch(`${origin}/en/`)).text();
    expect(
      report,
      releases.nextAssets.some((asset) => entryNow.includes(`/${asset}`)),
      "after the upgrade nginx does not answer the new release's page",
    );

    // The page from before the upgrade opens a lazy screen of its own build.
    await apps.myDataLink.click();
    const shown = await apps.myData
      .waitFor({ timeout: 30_000 })
      .then(() => true)
      .catch(() => false);
    expect(report, shown, "the My data dialog did not open on the page loaded before the upgrade");
    const after = assetAnswers.filter((answer) => answer.afterUpgrade);
    report.sent += after.length;
    for (const answer of after) {
      if (answer.status !== 200) report.problems.push(`${answer.url} answered ${answer.status} after the upgrade`);
    }
    expect(
      report,
      after.some((answer) => answer.url.endsWith(oldDialog ?? "-") && answer.status === 200),
      `the page did not fetch its own build's dialog chunk (${oldDialog}) after the upgrade`,
    );
    report.notes.push(
      `after the upgrade the page fetched ${after.map((answer) => `${answer.url} (${answer.status})`).join(", ")} from instances serving only the new release`,
    );
  } finally {
    for (const close of closers)
      await close().catch((error: unknown) => console.error("browser upgrade: clean-up:", error));
  }
  return report;
}
