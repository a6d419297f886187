import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";

/**
 * An application's OpenID Connect sign-in that finds no KPI ID session: the server keeps the interaction
 * in its signed pending sign-in cookie (not in the address or the page's storage), and the sign-in
 * screen's password sign-in is told by the server where to go on.
 */
describe.each(aboveModelDatabases)("continuing an OpenID Connect sign-in after signing in (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let rp: { id: string; secret: string };

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const person = await addPerson(test.app, { username: "i.shevchenko", fullName: "Ірина Шевченко" }, password);
    const added = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [],
      scopes: ["openid", "profile"],
      firstParty: true,
    });
    rp = { id: added.application.id, secret: added.secret };
    await grantAccess(test.app.db, person.id, added.application.id);
  });
  afterAll(() => test?.close());

  it("sends the browser to the plain sign-in screen in its language, then back to the application", async () => {
    const config = await discover(issuer, rp.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid profile", { ui_locales: "en" });
    const browser = new TestBrowser(origin);
    const { response } = await browser.follow(start.url.href);
    expect(new URL(response.url).pathname).toBe("/en/");
    expect(new URL(response.url).search).toBe("");
    expect(browser.cookies.has("kpi_id_continue")).toBe(true);

    const next = await browser.signIn("i.shevchenko", password);
    // The interaction began only because nobody was signed in: the provider decides the rest itself (statement-counts).
    expect(next).toMatch(/^\/oidc\/auth\/[\w-]+$/);
    // One sign-in spends it: the next one goes to the apps list.
    expect(browser.cookies.has("kpi_id_continue")).toBe(false);

    const { leftTo } = await browser.follow(next);
    expect(leftTo?.origin + (leftTo?.pathname ?? "")).toBe(redirectUri);
    expect(leftTo?.searchParams.get("code")).toBeTruthy();
    expect(leftTo?.searchParams.get("state")).toBe(start.state);
  });

  it("goes to the apps list when no sign-in was waiting", async () => {
    const browser = new TestBrowser(origin);
    expect(await browser.signIn("i.shevchenko", password)).toBe("/uk/apps");
  });
});
