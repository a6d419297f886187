import type { ApplicationAccess, CasServices } from "@kpi-id/contracts";
import type { Page } from "@playwright/test";
import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { ModAuthCasPage, PhpCasPage } from "../pages/cas-clients-page.ts";
import { ConsoleCasSection } from "../pages/console-cas-page.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { type RunningCasClients, startCasClients } from "../tools/cas/clients.ts";
import { prepareCasHarness } from "../tools/cas/harness.ts";
import { photograph } from "../tools/photographs.ts";
import { postFrom } from "../tools/post-from.ts";

const portBase = Number(process.env.E2E_PORT_BASE ?? 3300);
const idpUrl = `http://localhost:${portBase}`;
const harness = prepareCasHarness(process.env.E2E_CAS_DIR ?? "", portBase);
/** The applications this file registered: their students' rule ends with the file (afterAll). */
const registered: string[] = [];

/** An operator registers an application for students with one CAS service (a prefix), as docs/cas.md shows. */
async function registerCasApplication(operator: Page, name: string, service: Record<string, unknown>) {
  const created = await postFrom(operator, "/api/admin/applications", {
    name: `${name}-${Date.now().toString(36)}`,
    title: name,
    callbackUrl: `${String(service.url)}unused`,
  });
  expect(created.status).toBe(200);
  const { id } = (created.json as { application: { id: string } }).application;
  registered.push(id);
  expect((await postFrom(operator, `/api/admin/applications/${id}/rules`, { affiliation: "student" })).status).toBe(
    200,
  );
  // 200 only: afterAll forgets the file's services, so a worker that runs the file again after a failure registers
  // them anew (a 409 here once left the addresses with the earlier, ruleless application: every later test failed).
  expect((await postFrom(operator, `/api/admin/applications/${id}/cas-services`, service)).status).toBe(200);
  return id;
}

/**
 * Issue 59, point 1, with the CAS clients of Debian: phpCAS (php-cas) under PHP's built-in server, and Apache's
 * mod_auth_cas (libapache2-mod-auth-cas). Each signs a person in (attributes, a proxy ticket to a back end, a
 * protected location by attribute, renew, gateway) and out again (CAS single logout), in both languages.
 */
test.describe("CAS with phpCAS and mod_auth_cas", () => {
  let clients: RunningCasClients | undefined;
  let apacheApplicationId = "";

  test.beforeAll(async ({ browser }) => {
    clients = await startCasClients(harness, idpUrl);
    const context = await browser.newContext({ locale: "uk-UA" });
    const operator = await context.newPage();
    await new ConsolePage(operator, "uk").signInWithDiiaThroughApi("employee");
    await registerCasApplication(operator, "phpcas", {
      url: `${harness.phpUrl}/`,
      prefix: true,
      singleLogout: true,
      proxy: true,
      // As a plugin that wants its own names (Moodle's auth_casattras with firstname/lastname) is registered.
      attributes: ["uid", "displayName", "affiliation", "givenName", "sn"],
      renames: { uid: "username", givenName: "firstname", sn: "lastname" },
    });
    apacheApplicationId = await registerCasApplication(operator, "apache", {
      url: `${harness.apacheUrl}/`,
      prefix: true,
      singleLogout: true,
    });
    await context.close();
  });
  test.afterAll(async ({ browser }) => {
    clients?.stop();
    // The worker's server lives on: without this, every student (the demo one too) keeps these applications on the
    // apps page of the specs that run after this file (password-login counts the demo student's three).
    const context = await browser.newContext({ locale: "uk-UA" });
    const operator = await context.newPage();
    await new ConsolePage(operator, "uk").signInWithDiiaThroughApi("employee");
    for (const id of registered.splice(0)) {
      const access = (await (
        await operator.request.get(`${idpUrl}/api/admin/applications/${id}/access`)
      ).json()) as ApplicationAccess;
      for (const rule of access.rules) {
        const removed = await postFrom(operator, `/api/admin/applications/${id}/rules/remove`, { ruleId: rule.id });
        expect(removed.status).toBe(200);
      }
      // Its CAS addresses too, so they are free for the next start of this file on the same server.
      const { services } = (await (
        await operator.request.get(`${idpUrl}/api/admin/applications/${id}/cas-services`)
      ).json()) as CasServices;
      for (const { url } of services) {
        const forgotten = await postFrom(operator, `/api/admin/applications/${id}/cas-services/remove`, { url });
        expect(forgotten.status).toBe(200);
      }
    }
    await context.close();
  });

  for (const [language, locale] of [
    ["uk", "uk-UA"],
    ["en", "en-GB"],
  ] as const) {
    test.describe(`in ${language}`, () => {
      // phpCAS's site is https with a throw-away certificate (KPI ID trusts it through TLS_EXTRA_CA_FILE).
      test.use({ locale, ignoreHTTPSErrors: true });

      test("the console shows the application's CAS services and registers one more", async ({ page }, testInfo) => {
        await new ConsolePage(page, language).signInWithDiiaThroughApi("employee");
        const cas = new ConsoleCasSection(page, language);
        await cas.open(apacheApplicationId);
        await expect(cas.serverUrl).toHaveText(`${idpUrl}/cas`);
        await expect(cas.services.filter({ hasText: `${harness.apacheUrl}/` }).first()).toBeVisible();
        const extra = `https://wiki-${language}.kpi.ua/`;
        await cas.register(extra, {
          prefix: true,
          singleLogout: true,
          attributes: "uid, mail, displayName",
          renames: "mail=email",
        });
        await expect(cas.services.filter({ hasText: extra })).toBeVisible();
        await expect(cas.services.filter({ hasText: extra })).toContainText("uid, mail → email, displayName");
        await expectNoAxeViolations(page, "the console's CAS services");
        await photograph(page, testInfo, `console-cas-${language}`);
      });

      test("phpCAS: CAS 3.0 sign-in with attributes, a proxy ticket to the back end, and single logout", async ({
        page,
      }) => {
        const php = new PhpCasPage(page, harness.phpUrl);
        const login = new LoginPage(page, language);
        await php.open();
        await expect(page).toHaveURL(`${idpUrl}/${language}/`);
        await login.signIn(demoUsers.student.username, demoUsers.student.password);
        await page.waitForURL(`${harness.phpUrl}/index.php`);
        await expect(php.user).toHaveText(demoUsers.student.username);
        await expect(php.attribute("displayName")).toHaveText(demoUsers.student.fullName);
        await expect(php.attribute("affiliation")).toContainText("student");
        await expect(php.attribute("isFromNewLogin")).toHaveText("true");
        // Renamed as the service's renames say: phpCAS::getAttributes() has the new names, not KPI ID's.
        await expect(php.attribute("username")).toHaveText(demoUsers.student.username);
        await expect(php.attribute("firstname")).toHaveText("Олена");
        await expect(php.attribute("lastname")).toHaveText("Коваленко");
        await expect(php.attribute("uid")).toHaveCount(0);

        // A proxy ticket: KPI ID gave phpCAS a proxy-granting ticket at its https callback; the back end validates
        // the proxy ticket and KPI ID names the chain.
        await php.proxyLink.click();
        await expect(php.backEnd).toHaveText(`back end: ${demoUsers.student.username} via ${harness.phpUrl}/index.php`);

        // Signing out of KPI ID (its CAS logout, no service): phpCAS hears it by single logout, so its own session
        // is over too and the next visit asks KPI ID again, which shows the sign-in screen.
        await page.goto(`${idpUrl}/cas/logout`);
        await expect(page).toHaveURL(`${idpUrl}/${language}/`);
        await php.open();
        await expect(page).toHaveURL(`${idpUrl}/${language}/`);
        await expect(login.username).toBeVisible();
      });

      test("mod_auth_cas: a protected location, Require cas-attribute, renew, gateway and signing out", async ({
        page,
        browser,
      }) => {
        const apache = new ModAuthCasPage(page, harness.apacheUrl);
        const login = new LoginPage(page, language);
        await apache.open("secure");
        await expect(page).toHaveURL(`${idpUrl}/${language}/`);
        await login.signIn(demoUsers.student.username, demoUsers.student.password);
        await page.waitForURL(`${harness.apacheUrl}/secure/`);
        await expect(apache.user).toHaveText(demoUsers.student.username);
        await expect(apache.affiliation).toContainText("student");

        expect(await apache.open("students")).toBe(200);
        await expect(apache.user).toHaveText(demoUsers.student.username);
        expect(await apache.open("staff")).toBe(401);
        await apache.open("secure");

        // CASRenew: the sign-in screen although KPI ID has a session; the ticket then says it came from it.
        await apache.open("renew");
        await expect(page).toHaveURL(`${idpUrl}/${language}/?reauth=1`);
        await login.signIn(demoUsers.student.username, demoUsers.student.password);
        await page.waitForURL(`${harness.apacheUrl}/renew/`);
        await expect(apache.user).toHaveText(demoUsers.student.username);
        await expect(apache.newLogin).toHaveText("true");

        // CASGateway with a session: a ticket without a word to the person.
        await apache.open("gateway");
        await expect(apache.user).toHaveText(demoUsers.student.username);
        // CASGateway in a browser without a KPI ID session: back to the site without a sign-in screen and without
        // a ticket, as the CAS specification says; Apache then serves the public page (docs/cas.md's rewrite).
        const anonymous = await browser.newContext({ locale, ignoreHTTPSErrors: true });
        try {
          const gatewayPage = await anonymous.newPage();
          const seen: string[] = [];
          // Every navigation request, the redirects between too.
          gatewayPage.on("request", (request) => {
            if (request.isNavigationRequest()) seen.push(request.url());
          });
          await new ModAuthCasPage(gatewayPage, harness.apacheUrl).open("gateway");
          expect(seen.some((url) => url.startsWith(`${idpUrl}/cas/login?`) && url.includes("gateway=true"))).toBe(true);
          expect(seen.some((url) => url.startsWith(`${idpUrl}/${language}/`))).toBe(false);
          expect(gatewayPage.url()).toBe(`${harness.apacheUrl}/gateway/`);
          expect(seen.filter((url) => url.startsWith(harness.apacheUrl)).some((url) => url.includes("ticket="))).toBe(
            false,
          );
          // The site's public page, for nobody in particular (docs/cas.md: mod_auth_cas 1.2 with Apache 2.4).
          await expect(gatewayPage.getByTestId("apache-user")).toHaveText("(none)");
        } finally {
          await anonymous.close();
        }

        // Signing out of KPI ID, at its CAS logout in Ukrainian and with KPI ID's own sign-out button in English:
        // mod_auth_cas hears the single logout (a LogoutRequest naming each ticket it validated, the renewed one
        // and the first), so its own cookie, still in the browser, no longer opens the protected location.
        if (language === "uk") {
          await page.goto(`${idpUrl}/cas/logout?service=${encodeURIComponent(`${harness.apacheUrl}/`)}`);
          await expect(page).toHaveURL(`${harness.apacheUrl}/`);
        } else {
          const apps = new AppsPage(page, language);
          await apps.goto();
          await apps.logout.click();
          await expect(login.username).toBeVisible();
        }
        expect((await page.context().cookies(harness.apacheUrl)).map((cookie) => cookie.name)).toContain(
          "MOD_AUTH_CAS",
        );
        await apache.open("secure");
        await expect(page).toHaveURL(`${idpUrl}/${language}/`);
        await expect(login.username).toBeVisible();
      });
    });
  }
});
