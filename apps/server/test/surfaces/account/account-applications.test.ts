import type { ConnectedApplications } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, newPersonSignedInToApplication, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";

/** Issue 16: the account page lists the applications a person uses through OpenID Connect, and revokes one. */
describe.each(aboveModelDatabases)("my connected applications (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let people = 0;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
  });
  afterAll(() => test?.close());

  /** A person signed in to a fresh application through OpenID Connect (consent screen answered), holding tokens. */
  async function signedInWithTokens() {
    people += 1;
    const person = { username: `reader${people}`, fullName: "Олена Читачка", password };
    return newPersonSignedInToApplication({ app: test.app, origin, issuer }, person, redirectUri);
  }

  const listed = async (browser: TestBrowser) =>
    ((await (await browser.request("/api/account/applications")).json()) as ConnectedApplications).applications;
  const revoke = (browser: TestBrowser, applicationId: string) =>
    browser.request("/api/account/applications/revoke", {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ applicationId }),
    });

  it("lists the application the person signed in to and what it may read", async () => {
    const { browser, application } = await signedInWithTokens();
    expect(await listed(browser)).toEqual([
      { id: application.id, title: application.title, scopes: ["offline_access", "openid", "profile"] },
    ]);
    expect((await new TestBrowser(origin).request("/api/account/applications")).status).toBe(401);
  });

  it("revoking ends the grant and its tokens: the application's refresh gets invalid_grant; audited; it leaves the list", async () => {
    const signed = await signedInWithTokens();
    const refreshed = await client.refreshTokenGrant(signed.config, signed.tokens.refresh_token ?? "");
    expect(refreshed.access_token).toBeTruthy();

    const revoked = await revoke(signed.browser, signed.application.id);
    expect(revoked.status).toBe(200);
    await expect(client.refreshTokenGrant(signed.config, refreshed.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(client.fetchUserInfo(signed.config, refreshed.access_token, signed.userId)).rejects.toMatchObject({
      status: 401,
    });
    expect(await listed(signed.browser)).toEqual([]);
    const rows = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "application_id"])
      .where("event_type", "=", "application_revoked")
      .where("user_id", "=", signed.userId)
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toEqual([{ result: "success", application_id: signed.application.id }]);
    // Revoked already: nothing left to revoke.
    const again = await revoke(signed.browser, signed.application.id);
    expect(again.status).toBe(404);
    expect((await again.json()).code).toBe("account.application_not_found");
  });

  it("another person's application grant cannot be revoked from here, and keeps working", async () => {
    const owner = await signedInWithTokens();
    const other = await signedInWithTokens();
    const refused = await revoke(other.browser, owner.application.id);
    expect(refused.status).toBe(404);
    const refreshed = await client.refreshTokenGrant(owner.config, owner.tokens.refresh_token ?? "");
    expect(refreshed.access_token).toBeTruthy();
  });
});
