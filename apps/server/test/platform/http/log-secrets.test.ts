import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, sessionCookieFrom } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { askForDeepLink, person, pollDiia, postSignedCallback, startTestDiia } from "../../support/diia.ts";
import {
  answerAtGoogle,
  demoGoogleAccount,
  finishGoogleSignIn,
  googleSettings,
  sessionCookieOf,
  startGoogleSignIn,
} from "../../support/google.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const password = "a long passphrase, no rules";
const wrongPassword = "not the passphrase at all";
const redirectUri = "https://rp.example.edu/callback";
const googleAccount = demoGoogleAccount(0);
const studentTaxId = "3012345670"; // the stand-in's person "student"
const interactionIdCookies = new Set(["_interaction", "_interaction_resume"]);

/** Every log line the apps write, as the production logger (level info) writes them. */
const logLines: string[] = [];
const logStream = { write: (line: string) => void logLines.push(line) };
const atInfo = { LOG_LEVEL: "info" };

function cookieValue(pair: string): string {
  return pair.slice(pair.indexOf("=") + 1);
}

describe.each(aboveModelDatabases)("the log of every flow holds no credential (%s)", (kind) => {
  let diia: RunningDiiaStandIn;
  let google: RunningGoogleStandIn;
  let campus: TestApp;
  let oidc: Awaited<ReturnType<typeof createListeningTestApp>>;
  /** Every secret the run used, by what it is. */
  const secrets = new Map<string, string>();
  const keep = (name: string, value: string | undefined) => {
    if (!value) throw new Error(`the run got no ${name}`);
    secrets.set(name, value);
  };

  /**
   * The browser's cookies at the provider. The interaction cookies' value is the interaction's id, which
   * oidc-provider puts in the page's path by design (the address bar); their secret part is the `.sig` cookie.
   */
  const keepProviderCookies = (browser: TestBrowser) => {
    for (const [name, value] of browser.cookies) {
      if (!interactionIdCookies.has(name)) keep(`provider cookie ${name}`, value);
    }
  };

  beforeAll(async () => {
    logLines.length = 0;
    diia = await startTestDiia();
    google = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    campus = await createTestApp(
      kind,
      { ...atInfo, ...diia.env, ...googleSettings(google) },
      { protocols: ["tickets"], logStream },
    );
    oidc = await createListeningTestApp(kind, { protocols: ["oidc"], env: atInfo, logStream });
  });
  afterAll(async () => {
    await campus?.close();
    await oidc?.test.close();
    await diia?.close();
    await google?.close();
  });

  it("password, ticket, Diia, Google, OpenID Connect and logout leave request lines but no secret in the log", async () => {
    keep("password", password);
    keep("wrong password", wrongPassword);
    keep("session secret", campus.config.sessionSecret);
    keep("tax id", studentTaxId);
    const someone = await addPerson(campus.app, { username: "o.koval", fullName: "Олена Коваленко" }, password);
    const site = await addApplication(campus.app);
    keep("app secret", site.secret);
    await grantAccess(campus.app.db, someone.id, site.application.id);

    // Password sign-in, /user, an app redirect and the ticket exchange.
    const auth = await postJson(campus.app, "/api/auth", { username: "o.koval", password });
    keep("login grant", auth.json().sessionId);
    const internal = await postJson(campus.app, "/api/auth/internal", { sessionId: auth.json().sessionId });
    const cookie = sessionCookieFrom(internal);
    keep("session cookie", cookieValue(cookie));
    expect((await campus.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(200);
    const redirect = await campus.app.inject({
      url: `/api/app-redirect?appId=${site.application.id}`,
      headers: { cookie },
    });
    const ticketId = new URL(String(redirect.headers.location)).searchParams.get("ticketId") ?? undefined;
    keep("ticket", ticketId);
    const query = new URLSearchParams({ ticketId: ticketId ?? "", appId: site.application.id, appSecret: site.secret });
    expect((await campus.app.inject({ url: `/api/ticket?${query}` })).statusCode).toBe(200);

    // A wrong password, then logout.
    expect((await postJson(campus.app, "/api/auth", { username: "o.koval", password: wrongPassword })).statusCode).toBe(
      401,
    );
    expect((await postJson(campus.app, "/api/auth/logout", {}, { headers: { cookie } })).statusCode).toBeLessThan(400);

    // Diia: the request id, and the grant a finished request hands over.
    await insertUser(campus.app.db, { username: "student", full_name: "Олена Коваленко", tax_id: studentTaxId });
    const link = await askForDeepLink(campus.app);
    keep("Diia request id", link.requestId);
    keep("Diia binding cookie", cookieValue(link.cookie));
    expect((await postSignedCallback(campus.app, link.requestId, person(diia, "student"))).statusCode).toBe(200);
    const finished = (await pollDiia(campus.app, link.requestId, link.cookie)).json() as { sessionId?: string };
    keep("Diia grant", finished.sessionId);
    expect((await postJson(campus.app, "/api/auth/internal", { sessionId: finished.sessionId })).statusCode).toBe(200);

    // Google: state and code in the callback's query.
    await insertUser(campus.app.db, {
      username: "g.student",
      full_name: googleAccount.name,
      email: googleAccount.email,
    });
    const started = await startGoogleSignIn(campus.app);
    keep("Google pending cookie", started.cookieValue);
    keep("Google client secret", google.client.clientSecret);
    const answer = await answerAtGoogle(started.location, googleAccount.sub);
    keep("Google state", answer.state);
    keep("Google code", answer.code);
    const signedIn = await finishGoogleSignIn(campus.app, answer, started.cookie);
    keep("Google session cookie", sessionCookieOf(signedIn)?.value);

    // OpenID Connect: code flow, refresh, userinfo with the token in the query, introspection, end-session.
    await addPerson(oidc.test.app, { username: "o.koval", fullName: "Олена Коваленко" }, password);
    const rp = await addOidcClient(oidc.test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "offline_access"],
      firstParty: true,
    });
    keep("client secret", rp.secret);
    const signedInPerson = await oidc.test.app.db.selectFrom("users").select("id").executeTakeFirstOrThrow();
    await grantAccess(oidc.test.app.db, signedInPerson.id, rp.application.id);
    const config = await discover(oidc.issuer, rp.application.id, rp.secret);
    const browser = new TestBrowser(oidc.origin);
    await browser.signIn("o.koval", password);
    keepProviderCookies(browser);
    const start = await startSignIn(config, redirectUri, "openid profile offline_access", { prompt: "consent" });
    keep("OIDC state", start.state);
    keep("PKCE verifier", start.verifier);
    const { leftTo } = await browser.follow(start.url.href);
    if (!leftTo) throw new Error("the sign-in did not return to the application");
    keep("authorization code", leftTo.searchParams.get("code") ?? undefined);
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    keep("access token", tokens.access_token);
    keep("refresh token", tokens.refresh_token);
    keep("ID token", tokens.id_token);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    keep("refreshed access token", refreshed.access_token);
    keep("rotated refresh token", refreshed.refresh_token);
    expect((await client.fetchUserInfo(config, refreshed.access_token, signedInPerson.id)).sub).toBe(signedInPerson.id);
    // The provider refuses a token in the query (400), but the request line with it is still logged.
    const inQuery = await fetch(`${oidc.issuer}/me?${new URLSearchParams({ access_token: refreshed.access_token })}`);
    expect(inQuery.status).toBe(400);
    expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(true);
    const endSession = await browser.request(
      `${oidc.issuer}/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token ?? "" })}`,
    );
    expect(endSession.status).toBeLessThan(500);
    keepProviderCookies(browser);

    const log = logLines.join("");
    // The log is there: every flow's requests are in it.
    for (const path of [
      "/api/auth/internal",
      "/user",
      "/api/app-redirect",
      "/api/ticket?",
      "/api/auth/logout",
      "/api/diia/check-request?",
      "/google/auth?",
      "/oidc/token",
      "/oidc/me?",
      "/oidc/token/introspection",
      "/oidc/session/end?",
    ]) {
      expect(log, path).toContain(`"url":"${path}`);
    }
    // And not one secret of the run is.
    const leaked = [...secrets].filter(([, value]) => log.includes(value)).map(([name]) => name);
    expect(leaked).toEqual([]);
  });
});
