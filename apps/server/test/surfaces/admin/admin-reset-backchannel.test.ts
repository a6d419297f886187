import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import {
  addOidcClient,
  client,
  discover,
  startBackchannelReceiver,
  startSignIn,
  TestBrowser,
} from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "a stolen phone passphrase";

/**
 * A console reset of the second factor often follows a stolen phone: the applications the person is
 * signed in to are told at once (back-channel logout), and their tokens stop working, as on disabling.
 */
describe.each(aboveModelDatabases)(
  "the console's second-factor reset signs the person out of applications (%s)",
  (kind) => {
    let test: TestApp;
    let origin: string;
    let issuer: string;
    let backchannel: Awaited<ReturnType<typeof startBackchannelReceiver>>;

    beforeAll(async () => {
      ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
      backchannel = await startBackchannelReceiver();
    });
    afterAll(async () => {
      backchannel?.close();
      await test?.close();
    });

    it("sends the application a logout token for the session and revokes its refresh token", async () => {
      const person = await addPerson(test.app, { username: "stolen.phone", fullName: "Вкрадений Телефон" }, password);
      const added = await addOidcClient(test.app, {
        redirectUris: [redirectUri],
        scopes: ["openid" as const, "offline_access" as const],
        backchannelLogoutUri: backchannel.url,
        firstParty: true,
      });
      await grantAccess(test.app.db, person.id, added.application.id);
      const browser = new TestBrowser(origin);
      browser.setCookie(await signIn(test.app, "stolen.phone", password, { origin }));
      const config = await discover(issuer, added.application.id, added.secret);
      const start = await startSignIn(config, redirectUri, "openid offline_access", { prompt: "consent" });
      const { leftTo } = await browser.follow(start.url.href);
      if (!leftTo) throw new Error("the person was not signed in to the application");
      const tokens = await client.authorizationCodeGrant(config, leftTo, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
      expect(tokens.refresh_token).toBeTruthy();
      backchannel.logoutTokens.length = 0;

      const admin = await addOperator(test.app, ["admin"]);
      const reset = await test.app.inject({
        method: "POST",
        url: `/api/admin/people/${person.id}/second-factor/reset`,
        headers: { cookie: admin.cookie, origin, "content-type": "application/json" },
        payload: "{}",
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json()).toEqual({ done: true, count: 1 });
      expect(backchannel.logoutTokens.map((token) => decodeJwt(token).sid)).toEqual([
        decodeJwt(tokens.id_token ?? "").sid,
      ]);
      await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
        error: "invalid_grant",
      });
      expect((await browser.request("/api/user")).status).toBe(401);
    });
  },
);
