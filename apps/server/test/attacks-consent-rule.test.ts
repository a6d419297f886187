import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, grantAccess, signIn } from "./support/campus.ts";
import { databaseKinds } from "./support/databases.ts";
import { DevicePage, deviceOf } from "./support/device.ts";
import { createListeningTestApp, type ListeningTestApp } from "./support/listening.ts";
import { addOidcClient, discover, startSignIn, TestBrowser } from "./support/oidc.ts";

/** The same rule on OpenID Connect: an operator's first-party flag never skips a community application's screen. */
describe.each(databaseKinds)("OpenID Connect's first-party rule for community applications (%s)", (kind) => {
  let listening: ListeningTestApp;
  beforeAll(async () => {
    listening = await createListeningTestApp(kind);
  });
  afterAll(() => listening?.test.close());

  it("asks for consent for a community application marked first-party, and not for an operator's own", async () => {
    const { test, origin, issuer } = listening;
    const redirectUri = "https://rp.example.edu/callback";
    const person = await addPerson(test.app, { username: "oidc.person", fullName: "Особа OIDC" }, "oidc passphrase 1");
    const cookie = await signIn(test.app, "oidc.person", "oidc passphrase 1", { origin });
    const signInTo = async (clientId: string, secret: string) => {
      const browser = new TestBrowser(origin);
      browser.setCookie(cookie);
      const start = await startSignIn(await discover(issuer, clientId, secret), redirectUri, "openid profile");
      return browser.follow(start.url.href);
    };
    const official = await addOidcClient(test.app, { redirectUris: [redirectUri], firstParty: true });
    const community = await addOidcClient(test.app, { redirectUris: [redirectUri], firstParty: true });
    await test.app.db
      .updateTable("applications")
      .set({ community: true })
      .where("id", "=", community.application.id)
      .execute();
    for (const { application } of [official, community]) await grantAccess(test.app.db, person.id, application.id);

    const straight = await signInTo(official.application.id, official.secret);
    expect(straight.leftTo?.searchParams.get("code")).toBeTruthy();
    const asked = await signInTo(community.application.id, community.secret);
    expect(asked.leftTo).toBeUndefined();
    expect(new URL(asked.response.url).pathname).toBe("/uk/consent");
  });

  it("marks the device page's application reviewed or not, as the consent screen does (issue 56, point 6)", async () => {
    const { test, origin, issuer } = listening;
    await addPerson(test.app, { username: "device.person", fullName: "Особа пристрою" }, "device passphrase 1");
    const browser = new TestBrowser(origin);
    await browser.signIn("device.person", "device passphrase 1");
    const page = new DevicePage(browser);
    const reviewedOf = async (lifecycle: "live" | "testing") => {
      const device = await addOidcClient(test.app, { redirectUris: ["https://rp.example.edu/cb"], deviceFlow: true });
      await test.app.db
        .updateTable("applications")
        .set({ lifecycle, community: lifecycle === "testing" })
        .where("id", "=", device.application.id)
        .execute();
      const code = await deviceOf(issuer, { id: device.application.id, secret: device.secret }).askForCode();
      return (await page.lookUp(code.body.user_code)).body.reviewed;
    };
    expect(await reviewedOf("live")).toBe(true);
    expect(await reviewedOf("testing")).toBe(false);
  });
});
