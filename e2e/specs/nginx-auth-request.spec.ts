import {
  addPerson,
  documentedBlock,
  kpiIdCommands,
  type RunningSites,
  replaceEvery,
  startProtectedSites,
} from "@kpi-id/server/testing";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { NginxSitePage } from "../pages/nginx-site-page.ts";
import { type OwnKpiId, startOwnKpiId } from "../tools/own-kpi-id.ts";
import { photographNow } from "../tools/photographs.ts";

/**
 * Issue 59 point 2 in a real browser: Debian's nginx runs exactly the server block of docs/nginx-auth-request.md
 * (rendered as apps/server/test/protocols/forward-auth/nginx-auth-request.test.ts renders it) in front of a small site on its own host
 * name; the site is registered with the doc's own commands on a KPI ID of this file's own. The attacks that need
 * no browser (a forged header, a revoked session, another host's cookie, a replayed ticket) are in
 * apps/server/test/attacks/attacks-nginx.test.ts; here what only a browser decides: the Fetch Metadata it sends with a
 * sign-out link from another site, and the host-only cookie it keeps.
 */
const portBase = Number(process.env.E2E_PORT_BASE ?? 3300);
const nginxPort = portBase + 8;
// Chromium sends every *.localhost name to loopback, so the protected host needs no resolver of its own.
const host = "wiki.localhost";
const wikiOrigin = `https://${host}:${nginxPort}`;
/** KPI ID's sign-in screen, carrying the site's sign-in (the ticket path's appId, state and callback). */
const signInScreen = (language: string) => new RegExp(`^${kpiId.origin}/${language}/\\?appId=`);
const person = { username: "wiki-reader", password: "a wiki reader's passphrase", fullName: "Тарас Бойко" };

let kpiId: OwnKpiId;
let sites: RunningSites | undefined;

test.beforeAll(async () => {
  kpiId = await startOwnKpiId(portBase + 18);
  const commands = kpiIdCommands(
    replaceEvery(
      documentedBlock("nginx-auth-request.md", "## Registering the site", "sh"),
      "https://wiki.kpi.ua",
      wikiOrigin,
    ),
  );
  const [create, ...rest] = commands;
  const wiki = JSON.parse(await kpiId.cli([...(create ?? []), "--json"])) as { id: string; name: string };
  for (const command of rest) await kpiId.cli(command);
  await addPerson(kpiId.app, { username: person.username, fullName: person.fullName }, person.password);
  await kpiId.cli(["user", "grant", "--username", person.username, "--app", wiki.name]);
  sites = await startProtectedSites(kpiId.origin, nginxPort, [{ host, applicationId: wiki.id }]);
});

test.afterAll(async () => {
  await sites?.stop();
  await kpiId?.close();
});

for (const language of ["uk", "en"] as const) {
  test.describe(`a site behind nginx auth_request (${language})`, () => {
    test.use({ locale: language === "uk" ? "uk-UA" : "en-GB", ignoreHTTPSErrors: true });

    test("signs in through KPI ID and back to the address asked for, keeps the person signed in against another site's sign-out link, and signs out", async ({
      page,
      browser,
    }) => {
      const wiki = new NginxSitePage(page, wikiOrigin);
      const asked = "/docs/guide?page=2";
      await wiki.open(asked);
      await expect(page).toHaveURL(signInScreen(language));
      await new LoginPage(page, language).signIn(person.username, person.password);
      await page.waitForURL(`${wikiOrigin}${asked}`);

      // The site got the person from nginx, the name percent-encoded; KPI ID's own cookie never reached the host.
      const received = await wiki.received();
      expect(received.path).toBe(asked);
      expect(received.headers["x-remote-user"]).toBe(person.username);
      expect(decodeURIComponent(received.headers["x-kpi-id-name"] ?? "")).toBe(person.fullName);
      expect(received.headers.cookie).not.toContain("kpi_id_session");
      const firstCookie = await wiki.siteCookie();
      expect(firstCookie).toMatch(/^[\w-]{43}$/);

      // A sign-out link on another site: the browser says so (Sec-Fetch-Site: cross-site), so nothing ends.
      const evil = "http://evil.localhost/";
      await page.route(evil, (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><title>Prizes</title><a href="${wikiOrigin}/_kpi-id/sign-out?rd=/">Claim your prize</a>`,
        }),
      );
      await page.goto(evil);
      await page.getByRole("link", { name: "Claim your prize" }).click();
      await page.waitForURL(`${wikiOrigin}/`);
      expect((await wiki.received()).headers["x-remote-user"]).toBe(person.username);
      expect(await wiki.siteCookie()).toBe(firstCookie);

      // The host's own sign-out link ends the host's cookie; the KPI ID session goes on, so the next page signs
      // straight in again with a new one.
      await wiki.clickSignOut("/bye");
      await page.waitForURL(`${wikiOrigin}/bye`);
      expect((await wiki.received()).headers["x-remote-user"]).toBe(person.username);
      const secondCookie = await wiki.siteCookie();
      expect(secondCookie).toMatch(/^[\w-]{43}$/);
      expect(secondCookie).not.toBe(firstCookie);
      // The first cookie is forgotten: in a browser that still held it, it gets nobody in.
      const stale = await browser.newContext({ ignoreHTTPSErrors: true, locale: language });
      try {
        await stale.addCookies([{ name: "__Host-kpi_id_site", value: firstCookie ?? "", url: `${wikiOrigin}/` }]);
        const stalePage = await stale.newPage();
        await new NginxSitePage(stalePage, wikiOrigin).open("/");
        await expect(stalePage).toHaveURL(signInScreen(language));
      } finally {
        await stale.close();
      }

      // Signing out of KPI ID ends the session the host's cookie is bound to: the next request goes to sign in.
      await page.goto(`${kpiId.origin}/${language}/apps`);
      await new AppsPage(page, language).logout.click();
      await page.waitForURL(`${kpiId.origin}/${language}/`);
      await wiki.open("/");
      await expect(page).toHaveURL(signInScreen(language));
      await photographNow(page, test.info(), `sign-in-${language}`);
    });
  });
}
