import { casPaths, type SignInContinuing, signInContinuingSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { nodeSamlSp } from "../../protocols/saml/node-saml-sp.ts";
import type { TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess } from "../../support/campus.ts";
import { casApplication } from "../../support/cas.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addStudent, registerApplication } from "../../support/developers.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";
const continuing = "/api/sign-in/continuing";

/**
 * Issue 60: an OpenID Connect (or SAML, or CAS) sign-in sends the browser to the bare sign-in page, the application kept only
 * in the signed pending sign-in cookie; GET /api/sign-in/continuing lets the page name it, with its mark.
 */
describe.each(aboveModelDatabases)("the application a sign-in continues to (%s)", (kind) => {
  let t: TestApp;
  let origin: string;
  let issuer: string;

  beforeAll(async () => {
    ({ test: t, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc", "saml", "cas"] }));
  });
  afterAll(() => t?.close());

  /** A browser sent to the sign-in page by an OpenID Connect authorization request of this client. */
  async function browserAtSignIn(clientId: string, secret: string) {
    const config = await discover(issuer, clientId, secret);
    const start = await startSignIn(config, redirectUri, "openid profile", { ui_locales: "en" });
    const browser = new TestBrowser(origin);
    const { response } = await browser.follow(start.url.href);
    expect(new URL(response.url).pathname).toBe("/en/");
    return browser;
  }

  async function askContinuing(
    browser: TestBrowser,
  ): Promise<{ status: number; cacheControl: string | null; answer?: SignInContinuing }> {
    const response = await browser.request(continuing);
    const cacheControl = response.headers.get("cache-control");
    if (response.status !== 200) return { status: response.status, cacheControl };
    return { status: response.status, cacheControl, answer: signInContinuingSchema.parse(await response.json()) };
  }

  it("names a reviewed OpenID Connect client by both its names, until the sign-in takes the cookie", async () => {
    const person = await addPerson(t.app, { username: "m.bondar", fullName: "Марія Бондар" }, password);
    const rp = await addOidcClient(t.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile"],
      firstParty: true,
    });
    await grantAccess(t.app.db, person.id, rp.application.id);
    const browser = await browserAtSignIn(rp.application.id, rp.secret);

    const asked = await askContinuing(browser);
    expect(asked).toMatchObject({ status: 200, cacheControl: "no-store" });
    expect(asked.answer).toEqual({ title: rp.application.title, titleEn: rp.application.title_en, stage: "reviewed" });
    // Asking does not spend it: the sign-in still continues to the application.
    expect(await browser.signIn("m.bondar", password)).toMatch(/^\/oidc\/auth\/[\w-]+$/);
    expect((await askContinuing(browser)).status).toBe(204);
  });

  it("marks a developer's application that is still being tested", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application, secret } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Голосування", titleEn: "Voting", redirectUris: [redirectUri], scopes: ["openid", "profile"] },
      origin,
    );
    const browser = await browserAtSignIn(application.id, secret);
    expect((await askContinuing(browser)).answer).toEqual({
      title: "Голосування",
      titleEn: "Voting",
      stage: "testing",
    });
  });

  it("names a CAS service's application too", async () => {
    const { application } = await casApplication(t.app, "https://moodle.example.edu/login");
    const browser = new TestBrowser(origin);
    const { response } = await browser.follow(
      `${casPaths.login}?service=${encodeURIComponent("https://moodle.example.edu/login")}`,
    );
    expect(new URL(response.url).pathname).toBe("/uk/");
    expect((await askContinuing(browser)).answer).toMatchObject({ title: application.title, stage: "reviewed" });
  });

  it("names a SAML SP's application, or else the SP's display name, as reviewed", async () => {
    const certificate = (await t.app.saml.currentKeys()).signing?.certificate ?? "";
    /** A browser sent to the sign-in page by this SP's AuthnRequest (HTTP-Redirect binding), nobody signed in. */
    async function browserSentBy(baseUrl: string, policy: { applicationId?: string }, displayName: string) {
      const sp = nodeSamlSp({ idpUrl: origin, idpCertificate: certificate, baseUrl });
      const parsed = { ...(await parseSpMetadata(sp.metadata)), displayName };
      await upsertServiceProvider(t.app.db, parsed, "manual", policy, new Date());
      const browser = new TestBrowser(origin);
      const { response } = await browser.follow(await sp.saml.getAuthorizeUrlAsync("relay", undefined, {}));
      expect(new URL(response.url).pathname).toBe("/uk/");
      return browser;
    }

    const { application } = await addApplication(t.app, "https://library.example.edu/kpi-id/callback");
    const withApplication = await browserSentBy(
      "https://library.example.edu",
      { applicationId: application.id },
      "Бібліотека SP",
    );
    // The application's names win over the SP's display name: operators review the application, not the metadata.
    expect((await askContinuing(withApplication)).answer).toEqual({
      title: application.title,
      titleEn: application.title_en,
      stage: "reviewed",
    });

    const alone = await browserSentBy("https://journal.example.org", {}, "Journal of Applied Physics");
    expect(await askContinuing(alone)).toMatchObject({
      status: 200,
      cacheControl: "no-store",
      answer: { title: "Journal of Applied Physics", stage: "reviewed" },
    });
  });

  it("answers nothing without the cookie, and nothing (never an error) for an altered one", async () => {
    expect(await askContinuing(new TestBrowser(origin))).toMatchObject({ status: 204, cacheControl: "no-store" });

    const rp = await addOidcClient(t.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile"],
      firstParty: true,
    });
    const browser = await browserAtSignIn(rp.application.id, rp.secret);
    const signed = decodeURIComponent(browser.cookies.get("kpi_id_continue") ?? "");
    expect(signed).toContain('"protocol":"oidc"');
    // Someone else's real interaction, of another application: its uid under this cookie's signature names nothing.
    const other = await addOidcClient(t.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile"],
      firstParty: true,
    });
    const othersCookie = decodeURIComponent(
      (await browserAtSignIn(other.application.id, other.secret)).cookies.get("kpi_id_continue") ?? "",
    );
    const othersUid = /"waiting":"[^"]+"/.exec(othersCookie)?.[0] ?? "";
    expect(othersUid).not.toBe("");
    const altered = [
      signed.replace(/"waiting":"[^"]+"/, othersUid),
      // The signature cut off, and no JSON at all.
      signed.slice(0, signed.lastIndexOf(".")),
      "s:not json.AAAA",
      "%%%",
    ];
    for (const value of altered) {
      browser.cookies.set("kpi_id_continue", encodeURIComponent(value));
      expect(await askContinuing(browser), value).toMatchObject({ status: 204 });
    }
  });
});
