import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccess } from "../../../src/model/admission/applications.ts";
import { revokeOidcGrants } from "../../../src/model/oidc/grants.ts";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://thirdparty.example.org/callback";

describe.each(aboveModelDatabases)("OpenID Connect consent and public clients (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let thirdParty: { id: string; secret: string };
  let publicClientId: string;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const person = await addPerson(
      test.app,
      { username: "consenting", fullName: "Коваленко Олена Петрівна", taxId: "3012345678", employeeId: "E-1" },
      "correct horse battery",
    );
    await addPerson(test.app, { username: "outsider", fullName: "Ігор Бондар" }, "correct horse battery");
    const returning = await addPerson(
      test.app,
      { username: "returning", fullName: "Ганна Лисенко" },
      "correct horse battery",
    );
    const rp = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "kpi", "tax_id"],
    });
    thirdParty = { id: rp.application.id, secret: rp.secret };
    await grantAccess(test.app.db, person.id, rp.application.id);
    await grantAccess(test.app.db, returning.id, rp.application.id);
    const spa = await addOidcClient(test.app, { redirectUris: [redirectUri], public: true, firstParty: true });
    publicClientId = spa.application.id;
    await grantAccess(test.app.db, person.id, publicClientId);
  });
  afterAll(() => test?.close());

  async function browserOf(username: string) {
    const browser = new TestBrowser(origin);
    browser.setCookie(await signIn(test.app, username, "correct horse battery", { origin }));
    return browser;
  }

  async function reachConsent(
    browser: TestBrowser,
    config: client.Configuration,
    scope: string,
    extra: Record<string, string> = { prompt: "consent" },
  ) {
    const start = await startSignIn(config, redirectUri, scope, { ui_locales: "en", ...extra });
    const { leftTo, response } = await browser.follow(start.url.href);
    expect(leftTo).toBeUndefined();
    const landing = new URL(response.url);
    expect(landing.pathname).toBe("/en/consent");
    return { uid: landing.searchParams.get("uid") ?? "", ...start };
  }

  function consent(browser: TestBrowser, uid: string, allow: boolean) {
    return browser.request(`/api/oidc/interaction/${uid}/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ allow }),
    });
  }

  it("asks for consent for an application that is not first-party, lists what it asks, and continues on Allow", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("consenting");
    const { uid, verifier, state } = await reachConsent(browser, config, "openid profile kpi tax_id");

    const details = await browser.request(`/api/oidc/interaction/${uid}/details`);
    expect(details.status).toBe(200);
    expect(await details.json()).toMatchObject({
      scopes: ["profile", "kpi", "tax_id"],
      application: { title: expect.any(String) },
    });

    const answer = await consent(browser, uid, true);
    expect(answer.status).toBe(200);
    const { leftTo } = await browser.follow(((await answer.json()) as { redirectTo: string }).redirectTo);
    if (!leftTo) throw new Error("did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    // Three words read as "Прізвище Ім'я По батькові".
    expect(info).toMatchObject({
      family_name: "Коваленко",
      given_name: "Олена",
      kpi_employee_id: "E-1",
      kpi_tax_id: "3012345678",
    });
  });

  it("does not ask again for data the person already allowed, unless the application asks for prompt=consent", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("returning");
    const first = await reachConsent(browser, config, "openid profile", {});
    const allowed = await consent(browser, first.uid, true);
    await browser.follow(((await allowed.json()) as { redirectTo: string }).redirectTo);

    const again = await startSignIn(config, redirectUri, "openid profile");
    expect((await browser.follow(again.url.href)).leftTo?.searchParams.get("code")).toBeTruthy();
    // A scope not allowed before brings the consent screen back.
    await reachConsent(browser, config, "openid profile kpi", {});
  });

  it("one person's sign-out forgets only that browser's grants, never anyone's remembered consent (issue 35)", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const keeper = await addPerson(
      test.app,
      { username: "keeps-consent", fullName: "Ліна Вовк" },
      "correct horse battery",
    );
    const leaver = await addPerson(test.app, { username: "signs-out", fullName: "Тарас Лис" }, "correct horse battery");
    await grantAccess(test.app.db, keeper.id, thirdParty.id);
    await grantAccess(test.app.db, leaver.id, thirdParty.id);
    for (const username of ["keeps-consent", "signs-out"]) {
      const browser = await browserOf(username);
      const asked = await reachConsent(browser, config, "openid profile", {});
      const allowed = await consent(browser, asked.uid, true);
      await browser.follow(((await allowed.json()) as { redirectTo: string }).redirectTo);
      if (username === "signs-out") {
        const out = await browser.request("/api/auth/logout", {
          method: "POST",
          headers: { "content-type": "application/json", origin },
          body: "{}",
        });
        expect(out.status).toBe(200);
      }
    }
    // The one who stayed is not asked again.
    const again = await startSignIn(config, redirectUri, "openid profile");
    expect(
      (await (await browserOf("keeps-consent")).follow(again.url.href)).leftTo?.searchParams.get("code"),
    ).toBeTruthy();
  });

  it("forgets what the person allowed once their access ends: given access again, they are asked again", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const person = await addPerson(
      test.app,
      { username: "rejoining", fullName: "Олег Мороз" },
      "correct horse battery",
    );
    await grantAccess(test.app.db, person.id, thirdParty.id);
    const browser = await browserOf("rejoining");
    const first = await reachConsent(browser, config, "openid profile", {});
    await browser.follow(
      ((await (await consent(browser, first.uid, true)).json()) as { redirectTo: string }).redirectTo,
    );

    // As the console and the CLI revoke: the access and what was allowed (model/access), then the grants (model/oidc).
    await revokeAccess(test.app.db, person.id, thirdParty.id);
    await revokeOidcGrants(test.app.db, { userId: person.id, clientId: thirdParty.id });
    await grantAccess(test.app.db, person.id, thirdParty.id);
    await reachConsent(browser, config, "openid profile", {});
  });

  it("refuses a consent post without our Origin (CSRF rule)", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("consenting");
    const { uid } = await reachConsent(browser, config, "openid");
    const forged = await browser.request(`/api/oidc/interaction/${uid}/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example.com" },
      body: JSON.stringify({ allow: true }),
    });
    expect(forged.status).toBe(403);
    const wrongType = await consent(browser, uid, "yes" as unknown as boolean);
    expect(wrongType.status).toBe(400);
  });

  it("returns access_denied to the application on Deny", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("consenting");
    const { uid } = await reachConsent(browser, config, "openid profile");
    const answer = await consent(browser, uid, false);
    const { leftTo } = await browser.follow(((await answer.json()) as { redirectTo: string }).redirectTo);
    expect(leftTo?.searchParams.get("error")).toBe("access_denied");
    expect(leftTo?.searchParams.get("code")).toBeNull();
    const events = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "reason", "application_id"])
      .where("event_type", "=", "oidc_sign_in")
      .where("reason", "=", "the person declined")
      .orderBy("audit_events.id")
      .execute();
    expect(events).toEqual([{ result: "failure", reason: "the person declined", application_id: thirdParty.id }]);
  });

  it("shows a person without access KPI ID's own page, and returns access_denied only when they go back", async () => {
    const config = await discover(issuer, publicClientId);
    const browser = await browserOf("outsider");
    // No prompt=consent: the application would otherwise need none, so only the missing access stops it.
    const { uid } = await reachConsent(browser, config, "openid", {});
    const details = await browser.request(`/api/oidc/interaction/${uid}/details`);
    expect(await details.json()).toMatchObject({ access: false });
    const refused = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "reason"])
      .where("event_type", "=", "oidc_sign_in")
      .where("reason", "=", "no access to this application")
      .orderBy("audit_events.id")
      .execute();
    expect(refused).toEqual([{ result: "failure", reason: "no access to this application" }]);

    // "Allow" cannot get past the missing access either.
    const answer = await consent(browser, uid, true);
    const { leftTo } = await browser.follow(((await answer.json()) as { redirectTo: string }).redirectTo);
    expect(leftTo?.searchParams.get("error")).toBe("access_denied");
    expect(leftTo?.searchParams.get("error_description")).toBe("no access to this application");
    expect(leftTo?.searchParams.get("code")).toBeNull();
  });

  it("tells the consent screen that a person with access has it", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("consenting");
    const { uid } = await reachConsent(browser, config, "openid");
    const details = await browser.request(`/api/oidc/interaction/${uid}/details`);
    expect(await details.json()).toMatchObject({ access: true });
  });

  it("names the application in the page's language: its English title on an English screen", async () => {
    const config = await discover(issuer, thirdParty.id, thirdParty.secret);
    const browser = await browserOf("consenting");
    const { uid } = await reachConsent(browser, config, "openid");
    const read = async (language: string) =>
      (await (
        await browser.request(`/api/oidc/interaction/${uid}/details`, { headers: { "accept-language": language } })
      ).json()) as { application: { title: string; description: string } };
    expect((await read("en")).application).toEqual({
      title: expect.stringMatching(/^OIDC client \d+$/),
      description: "A site that signs in with OpenID Connect",
    });
    expect((await read("uk")).application.title).toMatch(/^Клієнт OIDC \d+$/);
  });

  it("lets a public client sign in with PKCE and no secret", async () => {
    const config = await discover(issuer, publicClientId);
    const browser = await browserOf("consenting");
    const start = await startSignIn(config, redirectUri, "openid profile");
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("did not return to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()?.amr).toEqual(["pwd"]);
  });
});
