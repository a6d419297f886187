import type { AccountActivityList, AccountSession, AccountSessions, ErrorBody } from "@kpi-id/contracts";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, shiftedClock, signIn } from "../../support/campus.ts";
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
const password = "correct horse battery";
const firefoxOnAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";
const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Issue 16: the account page's sessions: see them, end one, end all others (with a recent sign-in). */
describe.each(aboveModelDatabases)("my sessions on the account page (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  const clock = shiftedClock();
  let rp: { id: string; secret: string };
  let backchannel: Awaited<ReturnType<typeof startBackchannelReceiver>>;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"], clock: clock.now }));
    backchannel = await startBackchannelReceiver();
    const person = await addPerson(test.app, { username: "o.owner", fullName: "Олена Власна" }, password);
    await addPerson(test.app, { username: "s.stranger", fullName: "Сергій Чужий" }, password);
    const added = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      scopes: ["openid" as const, "profile" as const],
      backchannelLogoutUri: backchannel.url,
      firstParty: true,
    });
    rp = { id: added.application.id, secret: added.secret };
    await grantAccess(test.app.db, person.id, rp.id);
  });
  afterAll(async () => {
    backchannel?.close();
    await test?.close();
  });

  /** A browser with this user agent, signed in as `username` `secondsAgo` ago. */
  async function device(userAgent: string, username = "o.owner", secondsAgo = 0) {
    const browser = new TestBrowser(origin);
    clock.advance(-secondsAgo);
    browser.setCookie(await signIn(test.app, username, password, { origin, "user-agent": userAgent }));
    clock.advance(secondsAgo);
    return browser;
  }

  const post = (browser: TestBrowser, path: string, body: object) =>
    browser.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify(body),
    });
  const sessionsSeenBy = async (browser: TestBrowser) =>
    ((await (await browser.request("/api/account/sessions")).json()) as AccountSessions).sessions;
  const signedIn = async (browser: TestBrowser) => (await browser.request("/api/user")).status === 200;
  const other = (sessions: AccountSession[]) => sessions.find((session) => !session.current);

  it("lists every live session of the person with browser, system, method and address; this device marked", async () => {
    const phone = await device(firefoxOnAndroid);
    await device(chromeOnWindows);
    await device(chromeOnWindows, "s.stranger");
    const sessions = await sessionsSeenBy(phone);
    const mine = sessions.filter((session) => session.current);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ browser: "Firefox 128", system: "Android 14", method: "PASSWORD" });
    expect(sessions.map((session) => `${session.browser} / ${session.system}`)).toContain("Chrome 131 / Windows 10");
    // The stranger's session is not the person's: only theirs are listed.
    const owner = await test.app.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "o.owner")
      .executeTakeFirstOrThrow();
    const ownCount = await test.app.db.selectFrom("sessions").where("user_id", "=", owner.id).select("id").execute();
    expect(sessions).toHaveLength(ownCount.length);
    expect(sessions.every((session) => session.address !== "" && !Number.isNaN(Date.parse(session.startedAt)))).toBe(
      true,
    );
    expect((await new TestBrowser(origin).request("/api/account/sessions")).status).toBe(401);
  });

  it("ending another session signs that browser out at once, tells its OpenID Connect application, and is audited", async () => {
    await test.app.db.deleteFrom("sessions").execute();
    const phone = await device(firefoxOnAndroid);
    const laptop = await device(chromeOnWindows);
    const config = await discover(issuer, rp.id, rp.secret);
    const start = await startSignIn(config, redirectUri, "openid profile");
    const { leftTo } = await laptop.follow(start.url.href);
    if (!leftTo) throw new Error("the laptop was not signed in to the application");
    const tokens = await client.authorizationCodeGrant(config, leftTo, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    backchannel.logoutTokens.length = 0;

    const laptopSession = other(await sessionsSeenBy(phone));
    const ended = await post(phone, "/api/account/sessions/end", { sessionId: laptopSession?.id });
    expect(ended.status).toBe(200);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(phone)).toBe(true);
    expect(backchannel.logoutTokens.map((token) => decodeJwt(token).sid)).toEqual([
      decodeJwt(tokens.id_token ?? "").sid,
    ]);
    const audited = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "reason"])
      .where("event_type", "=", "session_end")
      .orderBy("audit_events.id")
      .execute();
    expect(audited).toContainEqual({ result: "success", reason: "one" });
  });

  it("a session that is not the person's cannot be ended: 404 account.session_not_found, and it stays signed in", async () => {
    const mine = await device(firefoxOnAndroid);
    const stranger = await device(chromeOnWindows, "s.stranger");
    const strangers = (await sessionsSeenBy(stranger)).find((session) => session.current);
    const refused = await post(mine, "/api/account/sessions/end", { sessionId: strangers?.id });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as ErrorBody).code).toBe("account.session_not_found");
    expect(await signedIn(stranger)).toBe(true);
  });

  it("ending one session needs a recent sign-in too, as ending all others does (issue 35)", async () => {
    const stale = await device(firefoxOnAndroid, "o.owner", 11 * 60);
    const laptop = await device(chromeOnWindows);
    const laptopSession = other(await sessionsSeenBy(stale));
    const refused = await post(stale, "/api/account/sessions/end", { sessionId: laptopSession?.id });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).code).toBe("auth.reauth_required");
    expect(await signedIn(laptop)).toBe(true);
  });

  it("ending all others needs a recent sign-in (403 auth.reauth_required), then ends every other session only", async () => {
    const stale = await device(firefoxOnAndroid, "o.owner", 11 * 60);
    const laptop = await device(chromeOnWindows);
    const refused = await post(stale, "/api/account/sessions/end-others", {});
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).code).toBe("auth.reauth_required");
    expect(await signedIn(laptop)).toBe(true);

    const fresh = await device(firefoxOnAndroid);
    const ended = await post(fresh, "/api/account/sessions/end-others", {});
    expect(ended.status).toBe(200);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(stale)).toBe(false);
    expect(await signedIn(fresh)).toBe(true);
    expect((await sessionsSeenBy(fresh)).map((session) => session.current)).toEqual([true]);
  });

  it("recent activity lists the person's own sign-ins and changes of the last 30 days, newest first", async () => {
    const owner = await test.app.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "o.owner")
      .executeTakeFirstOrThrow();
    const longAgo = new Date(clock.now().getTime() - 31 * 24 * 60 * 60 * 1000);
    await test.app.db
      .insertInto("audit_events")
      .values({ occurred_at: longAgo, event_type: "sign_in", result: "success", user_id: owner.id, reason: "long-ago" })
      .execute();
    await post(new TestBrowser(origin), "/api/auth", { username: "o.owner", password: "wrong password" });
    const phone = await device(firefoxOnAndroid);
    await device(chromeOnWindows, "s.stranger");
    const { events } = (await (await phone.request("/api/account/activity")).json()) as AccountActivityList;
    expect(events[0]).toMatchObject({
      type: "session_start",
      result: "success",
      method: "PASSWORD",
      browser: "Firefox 128",
    });
    expect(events.map((event) => `${event.type}:${event.result}`)).toContain("sign_in:failure");
    expect(events.map((event) => event.type)).toContain("session_end");
    expect(events.some((event) => event.reason === "long-ago")).toBe(false);
    // Only the person's own rows: as many as the audit log holds for them since 30 days ago.
    const own = await test.app.db
      .selectFrom("audit_events")
      .select("id")
      .where("user_id", "=", owner.id)
      .where("occurred_at", ">", longAgo)
      .orderBy("audit_events.id")
      .execute();
    expect(events).toHaveLength(own.length);
    expect(events.every((event) => !Number.isNaN(Date.parse(event.at)))).toBe(true);
    expect((await new TestBrowser(origin).request("/api/account/activity")).status).toBe(401);
  });
});
