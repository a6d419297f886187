import { addPerson } from "@kpi-id/server/testing";
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { type Language, LoginPage } from "../pages/login-page.ts";
import { ModAuthOpenidcPage } from "../pages/mod-auth-openidc-page.ts";
import {
  type ApacheSite,
  documentedRegistration,
  prepareApacheSite,
  type RunningApache,
  startApache,
} from "../tools/mod-auth-openidc.ts";
import { type OwnKpiId, startOwnKpiId } from "../tools/own-kpi-id.ts";
import { photographNow } from "../tools/photographs.ts";

/**
 * Issue 59 point 4: Apache's mod_auth_openidc (Debian's libapache2-mod-auth-openidc) as a relying party, configured
 * and registered exactly as docs/mod-auth-openidc.md says, against a KPI ID of this file's own (the operator CLI
 * registers the site on its database). Apache starts once for the file.
 */
const portBase = Number(process.env.E2E_PORT_BASE ?? 3300);
const reader = {
  username: "library-reader",
  password: "a reader's long passphrase",
  fullName: "Олена Петренко",
  email: "olena.petrenko@kpi.ua",
  studentId: "KV-5901",
};
const logoutYes = { uk: "Так, вийти", en: "Yes, sign me out" } as const;
// The site's titles as the doc registers it (--title, --title-en), each in its reader's language.
const logoutQuestion = {
  uk: "Бібліотека просить завершити ваш сеанс KPI ID.",
  en: "Library asks to end your KPI ID session.",
} as const;

let site: ApacheSite;
let kpiId: OwnKpiId;
let apache: RunningApache | undefined;

test.beforeAll(async () => {
  site = prepareApacheSite(portBase + 16);
  kpiId = await startOwnKpiId(portBase + 17, { trustCertificate: site.certFile });
  const [create, ...rest] = documentedRegistration(site);
  const created = JSON.parse(await kpiId.cli([...(create ?? []), "--json"])) as { id: string; secret: string };
  for (const command of rest) await kpiId.cli(command);
  await addPerson(kpiId.app, reader, reader.password);
  apache = await startApache(site, kpiId.origin, created);
});

test.afterAll(async () => {
  await apache?.stop();
  await kpiId?.close();
});

/** The authorization requests the module sends the browser to KPI ID with. */
function recordAuthorizationRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === kpiId.origin && url.pathname === "/oidc/auth") seen.push(url);
  });
  return seen;
}

async function signInThroughApache(page: Page, language: Language): Promise<ModAuthOpenidcPage> {
  const library = new ModAuthOpenidcPage(page, site.origin);
  await library.open();
  await expect(page).toHaveURL(`${kpiId.origin}/${language}/`);
  await new LoginPage(page, language).signIn(reader.username, reader.password);
  await page.waitForURL(library.protectedUrl);
  return library;
}

for (const language of ["uk", "en"] as const) {
  test.describe(`Apache mod_auth_openidc (${language})`, () => {
    test.use({ locale: language === "uk" ? "uk-UA" : "en-GB", ignoreHTTPSErrors: true });

    test("signs in by code flow with PKCE, passes the claims as headers, refreshes, and signs out by the module and by KPI ID", async ({
      page,
      browser,
    }) => {
      const requests = recordAuthorizationRequests(page);
      // A header of the module's names from the browser itself: the module removes it before the page runs.
      await page.setExtraHTTPHeaders({ OIDC_CLAIM_kpi_tax_id: "3012345670" });
      const library = await signInThroughApache(page, language);
      const asked = requests.at(-1);
      expect(asked?.searchParams.get("code_challenge_method")).toBe("S256");
      expect(asked?.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      expect(asked?.searchParams.get("scope")).toBe("openid profile email kpi offline_access");

      // The claims, from the ID token and userinfo, in OIDC_CLAIM_* headers; the Ukrainian name intact.
      await expect(library.claim("name")).toHaveText(reader.fullName);
      await expect(library.claim("given_name")).toHaveText("Олена");
      await expect(library.claim("email")).toHaveText(reader.email);
      await expect(library.claim("kpi_student_id")).toHaveText(reader.studentId);
      await expect(library.claim("amr")).toHaveText("pwd");
      const sub = await library.claim("sub").textContent();
      expect(sub).toMatch(/^[0-9a-f-]{36}$/);
      await expect(library.remoteUser).toHaveText(sub ?? "");
      await expect(library.claim("kpi_tax_id")).toHaveCount(0);
      await page.setExtraHTTPHeaders({});

      // Session refresh through the module: KPI ID's refresh grant gives a new access token.
      const firstToken = (await library.accessToken.textContent()) ?? "";
      expect(firstToken).not.toBe("");
      await library.refresh(firstToken);
      await page.waitForURL(library.protectedUrl);
      await expect(library.accessToken).not.toHaveText(firstToken);
      await expect(library.claim("name")).toHaveText(reader.fullName);

      // RP-initiated logout: the module's session ends, KPI ID asks, ends its own, and sends the browser back.
      await library.signOut();
      await expect(page).toHaveURL(new RegExp(`^${kpiId.origin}/oidc/session/end`));
      await expect(page.getByText(logoutQuestion[language])).toBeVisible();
      await photographNow(page, test.info(), `end-session-${language}`);
      await page.getByRole("button", { name: logoutYes[language] }).click();
      await page.waitForURL(`${site.origin}/signed-out.html`);
      await expect(library.signedOut).toBeVisible();
      // Signed out of both: the protected page asks for the password again.
      await library.open();
      await expect(page).toHaveURL(`${kpiId.origin}/${language}/`);

      // Back-channel logout: signed in again, then out on KPI ID's own screen; KPI ID tells the module, which
      // drops that session, so the page it kept a cookie for sends the browser to sign in.
      await new LoginPage(page, language).signIn(reader.username, reader.password);
      await page.waitForURL(library.protectedUrl);
      await expect(library.claim("name")).toHaveText(reader.fullName);
      // The module's cookie alone is the session: in another browser it opens the page too.
      const moduleCookies = (await page.context().cookies(site.origin)).filter((cookie) =>
        cookie.name.startsWith("mod_auth_openidc_session"),
      );
      expect(moduleCookies).toHaveLength(1);
      const other = await browser.newContext({ ignoreHTTPSErrors: true, locale: language });
      try {
        await other.addCookies(moduleCookies);
        const elsewhere = new ModAuthOpenidcPage(await other.newPage(), site.origin);
        await elsewhere.open();
        await expect(elsewhere.claim("name")).toHaveText(reader.fullName);

        await page.goto(`${kpiId.origin}/${language}/apps`);
        await new AppsPage(page, language).logout.click();
        await page.waitForURL(`${kpiId.origin}/${language}/`);
        // The module dropped the session KPI ID named: the same cookie now gets nobody in, in either browser.
        await elsewhere.open();
        await expect(elsewhere.page).toHaveURL(`${kpiId.origin}/${language}/`);
        await library.open();
        await expect(page).toHaveURL(`${kpiId.origin}/${language}/`);
      } finally {
        await other.close();
      }
    });
  });
}

test.describe("Apache mod_auth_openidc when access ends", () => {
  test.use({ locale: "uk-UA", ignoreHTTPSErrors: true });

  test("a person who lost access to the site: KPI ID refuses the module's refresh", async ({ page }) => {
    const library = await signInThroughApache(page, "uk");
    const token = (await library.accessToken.textContent()) ?? "";
    await kpiId.cli(["user", "revoke", "--username", reader.username, "--app", "library"]);
    try {
      await library.refresh(token);
      await page.waitForURL(`${library.protectedUrl}?error_code=refresh_failed`);
    } finally {
      await kpiId.cli(["user", "grant", "--username", reader.username, "--app", "library"]);
    }
  });
});
