import { createServer, type Server } from "node:http";
import { type HomeIdp, researcher, startHomeUniversity } from "@kpi-id/server/testing";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { ConsentPage } from "../pages/consent-page.ts";
import { HomeIdpLoginPage, InstitutionSearchPage, InstitutionWelcomePage } from "../pages/institution-pages.ts";
import { LoginPage } from "../pages/login-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { type OwnKpiId, startOwnKpiId } from "../tools/own-kpi-id.ts";
import { photograph } from "../tools/photographs.ts";

// A researcher of another university signs in with their home institution (issue 78): Debian's SimpleSAMLphp under
// Apache is the home university, listed in a signed aggregate of the federation KPI ID lets visitors come from
// (SAML_VISITOR_FEDERATIONS). They find it on the discovery screen, sign in at its own login form, agree to what it
// released, and open an application the operators let affiliates into. An institution whose answer carries a scope
// that is not its own, and one visitors may not come from, are refused with the reason on screen. Each language walks
// the whole way at one width (uk at 390 px, en at 1280 px); every screen is photographed at both.
// +12, not +6: the first worker's base + 6 is 3306, MySQL's port, taken on machines that run MariaDB.
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 12;
// The application's site: a page of its own on the port after KPI ID's, whose callback shows it was reached.
const labPort = port + 1;
const labOrigin = `http://localhost:${labPort}`;
const people = {
  uk: { username: "olena", name: "Олена Дослідниця", subject: "r42@home.example.org" },
  en: { username: "olga", name: "Olga Researcher", subject: "r43@home.example.org" },
} as const;
// People with a KPI ID account of their own, who link their home identity on the account page.
const members = {
  uk: { username: "marta", fullName: "Марта Членкиня", password: "a long walk by the dnipro river" },
  en: { username: "mark", fullName: "Mark Member", password: "a long walk by the dnipro river" },
} as const;
const homeNames = { uk: "Домашній університет", en: "Home University" } as const;
const refusals = {
  uk: { answer: "Відповідь вашого закладу не вдалося прийняти", notAllowed: "З цього закладу відвідувачі" },
  en: { answer: "Your institution's answer could not be accepted", notAllowed: "from this institution" },
} as const;

let kpiId: OwnKpiId;
let home: HomeIdp;
let lab: { id: string; secret: string };
let labSite: Server;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  labSite = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>Laboratory</title><h1>Laboratory</h1>");
  });
  await new Promise<void>((resolve) => labSite.listen(labPort, resolve));
  kpiId = await startOwnKpiId(port, {
    env: { SAML_VISITOR_FEDERATIONS: "research" },
    people: Object.values(members),
  });
  home = await startHomeUniversity(kpiId.app, {
    users: {
      olena: researcher(people.uk.subject, people.uk.name, { multiFactor: true }),
      olga: researcher(people.en.subject, people.en.name, { multiFactor: true }),
      // Members of KPI ID who link their identity at the home university to their account.
      "linker-uk": researcher("l1@home.example.org", "Linker One"),
      "linker-en": researcher("l2@home.example.org", "Linker Two"),
      // Released under another university's scope: the answer is refused.
      mallory: researcher("m1@evil.example.org", "Mallory Otherscope"),
    },
    validUntil: new Date(Date.now() + 7 * 86_400_000),
  });
  lab = JSON.parse(
    await kpiId.cli([
      ...["app", "create", "--name", "lab", "--title", "Лабораторія", "--title-en", "Laboratory"],
      ...["--description", "Журнал досліджень", "--description-en", "Research log"],
      ...["--callback-url", `${labOrigin}/kpi-id/callback`, "--json"],
    ]),
  ) as { id: string; secret: string };
  // As docs/visitors.md says: visitors (affiliates) are let in by an access rule, as anyone else.
  await kpiId.cli(["app", "rule", "add", "--app", "lab", "--affiliation", "affiliate"]);
});

test.afterAll(async () => {
  await home?.stop();
  await kpiId?.close();
  await new Promise((resolve) => labSite?.close(resolve));
});
/** From the discovery screen to the home institution's login form, signed in there, and back at KPI ID. */
async function signInAtHome(page: Page, language: "uk" | "en", username: string): Promise<void> {
  const discovery = new InstitutionSearchPage(page, language);
  await discovery.search.fill(language === "uk" ? "Домашній" : "Home Univ");
  await discovery.choice(homeNames[language]).click();
  const form = new HomeIdpLoginPage(page);
  await form.username.waitFor();
  await form.signIn(username, "home secret 1");
  await page.waitForURL(new RegExp(`^${kpiId.origin}/`));
}

const walks = [
  { language: "uk", width: 390 },
  { language: "en", width: 1280 },
] as const;

for (const { language, width } of walks) {
  test(`a researcher signs in with their home university and opens an application; a refused institution says why (${language}, ${width} px)`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      const person = people[language];

      // The login screen leads to the discovery screen.
      const login = new LoginPage(page, language);
      await login.goto("", kpiId.origin);
      await photograph(page, testInfo, `institution-login-${language}`, { backTo: width });
      await InstitutionSearchPage.entryOnLogin(page).click();
      await page.waitForURL(new RegExp(`/${language}/institution`));
      const discovery = new InstitutionSearchPage(page, language);
      await discovery.search.fill(language === "uk" ? "Домашній" : "Home Univ");
      await expect(discovery.choice(homeNames[language])).toBeVisible();
      await photograph(page, testInfo, `institution-search-${language}`, { backTo: width });
      await discovery.search.fill("");

      // At home: SimpleSAMLphp's own form; back at KPI ID, the first sign-in asks to agree.
      await discovery.choice(homeNames[language]).click();
      const form = new HomeIdpLoginPage(page);
      await form.username.waitFor();
      await photograph(page, testInfo, `institution-home-login-${language}`, { backTo: width });
      await form.signIn(person.username, "home secret 1");
      const welcome = new InstitutionWelcomePage(page);
      await expect(welcome.welcome).toContainText(person.name);
      await expect(welcome.welcome).toContainText(homeNames[language]);
      await expect(welcome.welcome).toContainText(`faculty@home.example.org`);
      await photograph(page, testInfo, `institution-welcome-${language}`, { backTo: width });
      await welcome.accept.click();

      // The visitor's apps: the application for affiliates, which opens with a ticket naming them.
      const apps = new AppsPage(page, language);
      await page.waitForURL(apps.url());
      const card = apps.cards.filter({ hasText: language === "uk" ? "Лабораторія" : "Laboratory" });
      await expect(card).toBeVisible();
      await photograph(page, testInfo, `institution-apps-${language}`, { backTo: width });
      const [tab] = await Promise.all([context.waitForEvent("page"), card.click()]);
      const consent = new ConsentPage(tab, language);
      const landed = tab.waitForURL(new RegExp(`^${labOrigin}/kpi-id/callback\\?ticketId=`));
      // An application registered with `app create` is not first-party: the visitor allows what it receives.
      await Promise.race([landed, consent.allow.waitFor({ timeout: 30_000 })]);
      if (await consent.allow.isVisible()) {
        await photograph(tab, testInfo, `institution-consent-${language}`, { backTo: width });
        await consent.allow.click();
      }
      await landed;
      const ticketId = new URL(tab.url()).searchParams.get("ticketId") ?? "";
      const exchange = new URLSearchParams({ ticketId, appId: lab.id, appSecret: lab.secret });
      const ticket = (await (await fetch(`${kpiId.origin}/api/ticket?${exchange}`)).json()) as {
        data: { NAME: string; AUTH_METHOD: string };
      };
      expect(ticket.data.NAME).toBe(person.name);
      expect(ticket.data.AUTH_METHOD).toBe("INSTITUTION");
      await tab.close();

      // Another browser: an identifier under a scope that is not the institution's is refused, and says why.
      const other = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const stranger = await other.newPage();
        const refused = new InstitutionSearchPage(stranger, language);
        await refused.goto(kpiId.origin);
        await signInAtHome(stranger, language, "mallory");
        await expect(refused.refused).toContainText(refusals[language].answer);
        await photograph(stranger, testInfo, `institution-refused-scope-${language}`, { backTo: width });

        // An institution chosen on this device before, which visitors may no longer come from: refused at the start.
        await stranger.evaluate(() =>
          localStorage.setItem(
            "kpi-id:last-institution",
            JSON.stringify({
              entityId: "https://idp.elsewhere.example/",
              en: "Elsewhere College",
              uk: "Коледж деінде",
              domains: ["elsewhere.example"],
            }),
          ),
        );
        await refused.goto(kpiId.origin);
        await refused.choice(language === "uk" ? "Коледж деінде" : "Elsewhere College").click();
        await expect(refused.startRefused).toContainText(refusals[language].notAllowed);
        await photograph(stranger, testInfo, `institution-not-allowed-${language}`, { backTo: width });
      } finally {
        await other.close();
      }
    } finally {
      await context.close();
    }
  });
}

for (const { language, width } of walks) {
  test(`a KPI ID member links their home institution on the account page (${language}, ${width} px)`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInThroughApi(page, language, members[language], kpiId.origin);
      await page.goto(`${kpiId.origin}/${language}/account#institution`);
      await page.getByTestId("institution-link-start").click();
      await photograph(page, testInfo, `institution-link-card-${language}`, { backTo: width });
      const discovery = new InstitutionSearchPage(page, language);
      await discovery.search.fill(language === "uk" ? "Домашній" : "Home Univ");
      await discovery.choice(homeNames[language]).click();
      const form = new HomeIdpLoginPage(page);
      await form.username.waitFor();
      await form.signIn(`linker-${language}`, "home secret 1");
      await page.waitForURL(new RegExp(`^${kpiId.origin}/${language}/account\\?linked=institution`));
      await expect(page.getByTestId("institution-link-outcome")).toBeVisible();
      await photograph(page, testInfo, `institution-linked-${language}`, { backTo: width });
    } finally {
      await context.close();
    }
  });
}
