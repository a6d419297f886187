import { inflateRawSync } from "node:zlib";
import type { Page, Request } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { ConsentPage } from "../pages/consent-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { ShibbolethSpPage } from "../pages/saml-sp-page.ts";
import { photographNow } from "../tools/photographs.ts";
import { prepareSamlHarness } from "../tools/saml/federation.ts";
import { type RunningShibboleth, startShibboleth, withoutAlgorithmSupport } from "../tools/saml/shibboleth.ts";

const idpUrl = `http://localhost:${Number(process.env.E2E_PORT_BASE ?? 3300)}`;
const passwordContext = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport";
const harness = prepareSamlHarness(process.env.E2E_SAML_DIR ?? "", idpUrl, Number(process.env.E2E_PORT_BASE ?? 3300));

/** The AuthnRequests the browser carries to KPI ID (HTTP-Redirect), as XML, and whether each was signed. */
function recordAuthnRequests(page: Page) {
  const seen: { xml: string; sigAlg: string | null }[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    const encoded = url.searchParams.get("SAMLRequest");
    if (!url.href.startsWith(`${idpUrl}/saml/sso`) || !encoded) return;
    seen.push({
      xml: inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8"),
      sigAlg: url.searchParams.get("Signature") ? url.searchParams.get("SigAlg") : null,
    });
  });
  return seen;
}

const signatureMethod = (xml: string) => /<(?:ds:)?SignatureMethod Algorithm="([^"]+)"/.exec(xml)?.[1];
const digestMethods = (xml: string) => [...xml.matchAll(/<(?:ds:)?DigestMethod Algorithm="([^"]+)"/g)].map((m) => m[1]);

/** The AuthnRequests the browser posts to KPI ID (HTTP-POST: base64 XML in a form, the signature inside). */
function recordPostedRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    if (request.method() !== "POST" || !request.url().startsWith(`${idpUrl}/saml/sso`)) return;
    const encoded = new URLSearchParams(request.postData() ?? "").get("SAMLRequest");
    if (encoded) seen.push(Buffer.from(encoded, "base64").toString("utf8"));
  });
  return seen;
}

/**
 * Issue 35 point 5 with the SP most research federations run: Debian's Shibboleth SP 3 (shibd and
 * Apache's mod_shib), configured as its documentation says, writing its booleans as "1" and signing its requests.
 */
test.describe("SAML 2.0 with a Shibboleth SP", () => {
  test.use({ locale: "uk-UA" });
  let shibboleth: RunningShibboleth | undefined;

  test.beforeAll(async () => {
    shibboleth = await startShibboleth(harness, idpUrl);
  });
  test.afterAll(async () => {
    await shibboleth?.stop();
  });

  test('sign-in with consent and scoped attributes Shibboleth accepts; ForceAuthn="1" asks again; IsPassive="1" without a session comes back without one', async ({
    page,
    browser,
  }) => {
    const sp = new ShibbolethSpPage(page, harness.shibboleth.url);
    const login = new LoginPage(page, "uk");
    const requests = recordAuthnRequests(page);
    await sp.openSecure();
    await expect(page).toHaveURL(`${idpUrl}/uk/`);
    // Shibboleth signed it (its metadata says AuthnRequestsSigned="1": an unsigned one would be refused).
    expect(requests.at(-1)?.sigAlg).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    await login.signIn(demoUsers.student.username, demoUsers.student.password);
    const consent = new ConsentPage(page, "uk");
    await consent.waitForSaml(idpUrl);
    await consent.allow.click();

    await page.waitForURL(`${harness.shibboleth.url}/secure/`);
    await expect(sp.session).toHaveText(/\S+/);
    // Scoped values survive Debian's attribute policy only when their scope is in KPI ID's metadata (shibmd:Scope).
    await expect(sp.attribute("eppn")).toHaveText(/^[0-9a-f-]{36}@kpi\.ua$/);
    await expect(sp.attribute("affiliation")).toContainText("student@kpi.ua");
    await expect(sp.attribute("displayName")).toHaveText(demoUsers.student.fullName);
    await expect(sp.authnContext).toHaveText(passwordContext);

    // ForceAuthn="1", as Shibboleth writes it: the sign-in screen again although KPI ID has a session.
    await sp.logIn({ forceAuthn: true, target: "/secure/" });
    await expect(page).toHaveURL(`${idpUrl}/uk/?reauth=1`);
    expect(requests.at(-1)?.xml).toMatch(/ForceAuthn="1"/);
    await login.signIn(demoUsers.student.username, demoUsers.student.password);
    await page.waitForURL(`${harness.shibboleth.url}/secure/`);
    await expect(sp.attribute("displayName")).toHaveText(demoUsers.student.fullName);

    // IsPassive="1" in a browser with no KPI ID session: NoPassive, which Shibboleth reports as an error
    // (its redirectErrors page, as deployments using isPassive configure), no session, no sign-in screen.
    const fresh = await browser.newContext({ locale: "uk-UA" });
    try {
      const passivePage = await fresh.newPage();
      const passiveRequests = recordAuthnRequests(passivePage);
      const loginScreens: string[] = [];
      passivePage.on("framenavigated", (frame) => {
        if (frame.url().startsWith(`${idpUrl}/uk/`)) loginScreens.push(frame.url());
      });
      const passive = new ShibbolethSpPage(passivePage, harness.shibboleth.url);
      await passive.logIn({ isPassive: true, target: "/public/" });
      await passivePage.waitForURL((url) => url.href.startsWith(`${harness.shibboleth.url}/public/`));
      expect(new URL(passivePage.url()).searchParams.get("statusCode2")).toBe(
        "urn:oasis:names:tc:SAML:2.0:status:NoPassive",
      );
      expect(passiveRequests.at(-1)?.xml).toMatch(/IsPassive="1"/);
      // Server-side includes print "(none)" for a variable mod_shib did not set: there is no session.
      await expect(passive.session).toHaveText("(none)");
      expect(loginScreens).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  test("by HTTP-POST too it signs with RSA-SHA256, as KPI ID's metadata advertises, and signs a person in", async ({
    page,
  }) => {
    const sp = new ShibbolethSpPage(page, harness.shibboleth.url);
    const posted = recordPostedRequests(page);
    await sp.logInByPost();
    await expect(page).toHaveURL(`${idpUrl}/uk/`);
    const xml = posted.at(-1) ?? "";
    expect(signatureMethod(xml)).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    expect(digestMethods(xml)).toEqual(["http://www.w3.org/2001/04/xmlenc#sha256"]);
    await new LoginPage(page, "uk").signIn(demoUsers.newcomer.username, demoUsers.newcomer.password);
    const consent = new ConsentPage(page, "uk");
    await consent.waitForSaml(idpUrl);
    await consent.allow.click();
    await page.waitForURL(`${harness.shibboleth.url}/secure/`);
    await expect(sp.attribute("displayName")).toHaveText(demoUsers.newcomer.fullName);
  });

  test("an SP holding KPI ID's metadata from before the algorithm list signs its POST with SHA-1: refused, and the page says what its operator must change", async ({
    browser,
  }) => {
    // The same SP restarted with the metadata stripped of alg:SigningMethod and alg:DigestMethod.
    await shibboleth?.stop();
    shibboleth = undefined;
    shibboleth = await startShibboleth(harness, idpUrl, { metadata: withoutAlgorithmSupport });
    const advice = {
      uk: 'Сервіс підписав запит на вхід застарілим алгоритмом SHA-1, і KPI ID такий запит не приймає. Перекажіть адміністраторові сервісу: завантажте метадані KPI ID ще раз (вони оголошують RSA-SHA256) або задайте signingAlg="rsa-sha256" у shibboleth2.xml.',
      en: "The service signed its sign-in request with SHA-1, which KPI ID does not accept. Tell the service's administrator: load KPI ID's metadata again (it advertises RSA-SHA256) or set signingAlg=\"rsa-sha256\" in shibboleth2.xml.",
    } as const;
    for (const language of ["uk", "en"] as const) {
      const context = await browser.newContext({ locale: language === "uk" ? "uk-UA" : "en-GB" });
      try {
        const page = await context.newPage();
        const posted = recordPostedRequests(page);
        await new ShibbolethSpPage(page, harness.shibboleth.url).logInByPost();
        await page.waitForURL(`${idpUrl}/${language}/consent?samlError=saml.weak_signature`);
        expect(signatureMethod(posted.at(-1) ?? "")).toBe("http://www.w3.org/2000/09/xmldsig#rsa-sha1");
        await expect(new ConsentPage(page, language).samlRefused).toHaveText(advice[language]);
        await photographNow(page, test.info(), `sha1-refused-${language}`);
      } finally {
        await context.close();
      }
    }
  });
});
