import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../sandbox/src/google/index.ts";
import { addPasskey } from "../../src/model/passkeys/credentials.ts";
import { upsertServiceProvider } from "../../src/model/saml/service-providers.ts";
import { grantRole } from "../../src/model/users/operator-roles.ts";
import { throttlePolicy } from "../../src/platform/throttle/policy.ts";
import { parseSpMetadata } from "../../src/protocols/saml/sp-metadata.ts";
import { demoPeople } from "../../src/surfaces/seed/demo-data.ts";
import { nodeSamlSp } from "../protocols/saml/node-saml-sp.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import { addApplication, addPerson, grantAccess, shiftedClock } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { answerAtGoogle, googleSettings, sessionCookieOf, startGoogleSignIn } from "../support/google.ts";
import { createListeningTestApp, type ListeningTestApp } from "../support/listening.ts";
import { addAuthenticator } from "../support/mfa.ts";
import { addOidcClient, discover, startSignIn, TestBrowser } from "../support/oidc.ts";

const password = "the victim's only secret 7";
const refedsMfa = "https://refeds.org/profile/mfa";
const redirectUri = "https://rp.example.edu/callback";

/**
 * Issue 35, points 1 and 2, as the outside test ran them: someone who knows only a person's password (or holds
 * only their Google account) over plain HTTP, with a client that keeps cookies like a browser.
 */
describe.each(aboveModelDatabases)("second-factor attacks (%s)", (kind) => {
  let listening: ListeningTestApp;
  const clock = shiftedClock();
  let people = 0;

  beforeAll(async () => {
    listening = await createListeningTestApp(kind, { clock: clock.now });
  });
  afterAll(async () => {
    await listening?.test.close();
  });

  const app = () => listening.test.app;

  /** A browser of the attacker: cookies kept, Origin and JSON on every POST, as the sign-in screen sends them. */
  function attackerBrowser() {
    const browser = new TestBrowser(listening.origin);
    const post = async (path: string, body: object) => {
      const response = await browser.request(path, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", origin: listening.origin },
      });
      const answer = (await response.json()) as Record<string, unknown>;
      return { status: response.status, body: answer, retryAfter: response.headers.get("retry-after") };
    };
    return { browser, post };
  }

  async function victim() {
    people += 1;
    const username = `victim-${people}`;
    const person = await addPerson(app(), { username, fullName: "Жертва Атаки" }, password);
    return { person, username };
  }

  it("the step-up bypass: a password-only attacker enrols their own authenticator; the session stays one factor everywhere", async () => {
    const { person, username } = await victim();
    await grantRole(app().db, person.id, "admin");
    const { browser, post } = attackerBrowser();
    await browser.signIn(username, password);

    // The attacker sets up an authenticator of their own: it works (nothing proves the person had none)...
    const setup = await post("/api/account/totp", {});
    expect(setup.status).toBe(200);
    const code = await generate({ secret: String(setup.body.secret), epoch: Math.floor(clock.now().getTime() / 1000) });
    expect((await post("/api/account/totp/confirm", { code })).status).toBe(200);
    const rows = await app().db.selectFrom("sessions").select("amr").where("user_id", "=", person.id).execute();
    expect(rows.map((row) => row.amr)).toEqual([["pwd"]]);

    // ...but the console still wants a step-up,
    const console = await browser.request("/api/admin/me");
    expect(console.status).toBe(403);
    expect(((await console.json()) as { code: string }).code).toBe("auth.step_up_required");

    // an application that requires MFA sends the browser to sign in again with the second factor,
    const { application } = await addApplication(app());
    await grantAccess(app().db, person.id, application.id);
    await app().db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
    const ticketApp = await browser.request(`/api/app-redirect?appId=${application.id}`);
    expect(ticketApp.status).toBe(302);
    expect(ticketApp.headers.get("location")).toContain("reauth=1&mfa=1");

    // OpenID Connect acr_values asking for REFEDS MFA gets the sign-in screen, not a code,
    const rp = await addOidcClient(app(), { redirectUris: [redirectUri], scopes: ["openid"], firstParty: true });
    await grantAccess(app().db, person.id, rp.application.id);
    const config = await discover(listening.issuer, rp.application.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid", { acr_values: refedsMfa });
    const oidc = await browser.follow(start.url.href);
    expect(oidc.leftTo).toBeUndefined();
    expect(new URL(oidc.response.url).search).toContain("mfa=1");

    // and a SAML service provider asking for REFEDS MFA gets no assertion: the sign-in screen again.
    const certificate = (await app().saml.currentKeys()).signing?.certificate ?? "";
    const sp = nodeSamlSp({
      idpUrl: listening.origin,
      idpCertificate: certificate,
      baseUrl: "https://mfa-sp.example.org",
      authnContext: [refedsMfa],
    });
    await upsertServiceProvider(
      app().db,
      await parseSpMetadata(sp.metadata),
      "manual",
      { releasedAttributes: [], firstParty: true },
      clock.now(),
    );
    const saml = await browser.follow(await sp.saml.getAuthorizeUrlAsync("", undefined, {}));
    expect(saml.leftTo).toBeUndefined();
    expect(new URL(saml.response.url).search).toContain("reauth=1");
    expect(await saml.response.text()).not.toContain("SAMLResponse");
  });

  it("a password-only session of a person with a passkey adds no authenticator and no passkey", async () => {
    const { person, username } = await victim();
    // The person's own passkey, registered earlier (the ceremony itself: passkeys.test.ts).
    await addPasskey(
      app().db,
      {
        userId: person.id,
        credentialId: `attack-${people}`,
        publicKey: new Uint8Array(32),
        signCount: 0,
        transports: [],
        backupEligible: false,
        backedUp: false,
        aaguid: "00000000-0000-0000-0000-000000000000",
        name: "Ключ власника",
      },
      clock.now(),
    );
    const { browser, post } = attackerBrowser();
    // A passkey but no second factor: the password signs in, as one factor (docs/operations.md).
    await browser.signIn(username, password);
    for (const path of ["/api/account/totp", "/api/account/passkeys/options"]) {
      const refused = await post(path, {});
      expect(refused.status, path).toBe(403);
      expect(refused.body.code, path).toBe("auth.reauth_second_factor_required");
    }
  });

  it("the code-counter reset: a correct password between wrong codes gives no more guesses; the lock holds", async () => {
    const { person, username } = await victim();
    const codeAt = await addAuthenticator(app(), person, new Date(clock.now().getTime() - 60_000));
    const lock = throttlePolicy.account.lock;
    if (!lock) throw new Error("the account rule has no lock");
    let wrongCodesJudged = 0;
    let locked = false;
    // Rounds of: the right password (which used to reset the counter), then three wrong codes, from a fresh
    // browser each time. Every short wait is sat out (the clock moves past it); only the lock stops the rounds.
    for (let round = 0; round < lock.afterFailures && !locked; round++) {
      const { post } = attackerBrowser();
      const auth = await post("/api/auth", { username, password });
      expect(auth.status).toBe(200);
      for (let guess = 0; guess < 3 && !locked; ) {
        const answer = await post("/api/auth/second-factor", { sessionId: auth.body.sessionId, code: "000000" });
        if (answer.status === 401) {
          wrongCodesJudged += 1;
          guess += 1;
        } else {
          expect(answer.status).toBe(429);
          const wait = Number(answer.retryAfter);
          if (wait >= lock.seconds) locked = true;
          else clock.advance(wait);
        }
      }
    }
    console.log(`attacks: password + 3 wrong codes, repeated: ${wrongCodesJudged} codes judged before the lock`);
    expect(locked).toBe(true);
    expect(wrongCodesJudged).toBe(lock.afterFailures);
    // Even the right code is refused while the lock holds (the owner still has a passkey, Diia or the helpdesk).
    const { post } = attackerBrowser();
    const auth = await post("/api/auth", { username, password });
    const right = await post("/api/auth/second-factor", {
      sessionId: auth.body.sessionId,
      code: await codeAt(clock.now()),
    });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe("auth.too_many_attempts");
  });
});

describe.each(aboveModelDatabases)("a Google sign-in of a person with a second factor (%s)", (kind) => {
  let t: TestApp;
  let google: RunningGoogleStandIn;
  const clock = shiftedClock();
  const owner = demoPeople[1] ?? { username: "", email: "", fullName: "" };

  beforeAll(async () => {
    google = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    t = await createTestApp(kind, googleSettings(google), { clock: clock.now });
  });
  afterAll(async () => {
    await t?.close();
    await google?.close();
  });

  it("asks for the code (Google is one factor); without it no session, with it a two-factor one", async () => {
    const person = await addPerson(
      t.app,
      { username: owner.username, fullName: owner.fullName, email: owner.email },
      password,
    );
    const codeAt = await addAuthenticator(t.app, person, new Date(clock.now().getTime() - 60_000));
    const account = googleAccounts.find((each) => each.email === owner.email);
    if (!account) throw new Error("no Google stand-in account for the person");
    const started = await startGoogleSignIn(t.app);
    const answer = await answerAtGoogle(started.location, account.sub);
    const back = await t.app.inject({
      url: `/google/auth?${new URLSearchParams({ code: answer.code, state: answer.state })}`,
      headers: { accept: "text/html", cookie: started.cookie },
    });
    expect(back.statusCode).toBe(302);
    expect(sessionCookieOf(back)).toBeUndefined();
    const location = new URL(String(back.headers.location), TEST_PUBLIC_URL);
    expect(location.pathname).toBe("/uk/");
    const grant = new URLSearchParams(location.hash.slice(1)).get("second-factor") ?? "";
    expect(grant).not.toBe("");

    // The grant alone does not sign in (a Google-only attacker stops here)...
    expect((await postJson(t.app, "/api/auth/internal", { sessionId: grant })).statusCode).toBe(401);
    // ...a wrong code neither...
    const wrong = await postJson(t.app, "/api/auth/second-factor", { sessionId: grant, code: "000000" });
    expect(wrong.json().code).toBe("auth.code_invalid");
    // ...the person's code does, as two factors.
    const code = await codeAt(clock.now());
    expect((await postJson(t.app, "/api/auth/second-factor", { sessionId: grant, code })).statusCode).toBe(200);
    const signedIn = await postJson(t.app, "/api/auth/internal", { sessionId: grant });
    expect(signedIn.statusCode).toBe(200);
    const sessions = await t.app.db
      .selectFrom("sessions")
      .select(["amr", "auth_method"])
      .where("user_id", "=", person.id)
      .execute();
    expect(sessions).toEqual([{ amr: ["google", "otp", "mfa"], auth_method: "GOOGLE" }]);
  });
});
