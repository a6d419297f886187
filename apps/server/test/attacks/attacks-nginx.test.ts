import { type AccountSessions, accountSessionsSchema, forwardAuthPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableUser } from "../../src/model/sessions/disable.ts";
import { postJson } from "../support/app.ts";
import { addApplication } from "../support/campus.ts";
import { sessionCookieOf } from "../support/console.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { createListeningTestApp, type ListeningTestApp } from "../support/listening.ts";
import { freePort, type RunningSites, startCookieFrom, startProtectedSites } from "../support/nginx-site.ts";
import { addProtectedSite, addVisitor, pathOf, visitSigningIn } from "../support/nginx-visit.ts";

/**
 * Issue 59's attack suite, nginx's part: a forged header through nginx, a revoked session behind nginx, another
 * host's cookie; and the round trip's own weak points (the ticket, the way back) tried as an attacker would.
 */
describe.each(aboveModelDatabases)("attacks on sites behind nginx (%s)", (kind) => {
  let kpiId: ListeningTestApp;
  let sites: RunningSites;
  let wiki: { id: string };
  let lab: { id: string };
  const [wikiHost, labHost] = ["wiki.kpi.ua", "lab.kpi.ua"];

  beforeAll(async () => {
    kpiId = await createListeningTestApp(kind);
    const port = await freePort();
    wiki = await addProtectedSite(kpiId.test.app, `https://${wikiHost}:${port}`);
    lab = await addProtectedSite(kpiId.test.app, `https://${labHost}:${port}`);
    sites = await startProtectedSites(kpiId.origin, port, [
      { host: wikiHost, applicationId: wiki.id },
      { host: labHost, applicationId: lab.id },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sites?.stop();
    await kpiId?.test.close();
  });

  /** KPI ID's check asked directly, as an attacker who reaches it past nginx would. */
  const checkDirectly = (headers: Record<string, string>) =>
    kpiId.test.app.inject({ url: forwardAuthPaths.check, headers });

  it("a forged header through nginx: the client's X-Remote-User and application id never count", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    const page = await sites.get(wikiHost, "/", {
      cookie: siteCookie,
      "x-remote-user": "admin",
      // Trying to make KPI ID judge another application or another address: nginx sets both itself.
      "x-kpi-id-application": lab.id,
      "x-original-url": "https://evil.example/",
    });
    expect(page.status).toBe(200);
    expect(sites.received(page).headers["x-remote-user"]).toBe(visitor.username);

    // No cookie, only headers: nobody is let in, through nginx or straight at KPI ID.
    const anonymous = await sites.get(wikiHost, "/", { "x-remote-user": visitor.username });
    expect(anonymous.status).toBe(302);
    const direct = await checkDirectly({ "x-kpi-id-application": wiki.id, "x-remote-user": visitor.username });
    expect(direct.statusCode).toBe(401);
    expect(direct.json()).toMatchObject({ code: "forward_auth.sign_in_required" });
    expect(direct.headers["x-kpi-id-user-id"]).toBeUndefined();
  });

  it("a revoked session behind nginx: the host's cookie stops at the next request", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(200);

    // From another browser (a fresh sign-in), the person ends the session the wiki's cookie came from.
    const otherBrowser = await sessionCookieOf(kpiId.test.app, visitor.person.id, "PASSWORD");
    const listed = await kpiId.test.app.inject({ url: "/api/account/sessions", headers: { cookie: otherBrowser } });
    const sessions: AccountSessions = accountSessionsSchema.parse(listed.json());
    const bound = sessions.sessions.find((session) => !session.current);
    const ended = await postJson(
      kpiId.test.app,
      "/api/account/sessions/end",
      { sessionId: bound?.id },
      { headers: { cookie: otherBrowser, origin: kpiId.origin } },
    );
    expect(ended.statusCode).toBe(200);
    const after = await sites.get(wikiHost, "/", { cookie: siteCookie });
    expect(after.status).toBe(302);
    expect(pathOf(String(after.headers.location)).startsWith("/api/app-redirect?")).toBe(true);
  });

  it("a disabled person is refused at the next request", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(200);
    await disableUser({ db: kpiId.test.app.db, now: kpiId.test.app.clock() }, visitor.person.id);
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(302);
  });

  it("another host's cookie: one issued at the wiki opens nothing at the lab, even for a person allowed into both", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id, lab.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(200);
    const atLab = await sites.get(labHost, "/", { cookie: siteCookie });
    expect(atLab.status).toBe(302);
    expect(new URL(String(atLab.headers.location)).searchParams.get("appId")).toBe(lab.id);
    // Straight at KPI ID, naming the lab: the cookie is bound to the wiki's application.
    const direct = await checkDirectly({ "x-kpi-id-application": lab.id, cookie: siteCookie });
    expect(direct.statusCode).toBe(401);
  });

  it("a ticket works once, at its own host only", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id, lab.id]);
    const round = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    expect(round.callback?.status).toBe(302);
    // Replayed, even with the start's cookie kept: refused.
    const replayed = await sites.get(wikiHost, pathOf(round.toCallback), { cookie: round.startCookie });
    expect(replayed.status).toBe(401);
    expect(JSON.parse(replayed.body)).toMatchObject({ code: "ticket.invalid" });

    // A fresh wiki ticket taken to the lab's callback: refused there, so it cannot set the lab's cookie.
    const first = await sites.get(wikiHost, "/");
    const kpiIdAnswer = await fetch(String(first.headers.location), {
      redirect: "manual",
      headers: { cookie: visitor.kpiIdCookie },
    });
    const wikiTicket = pathOf(kpiIdAnswer.headers.get("location") ?? "");
    // (An attacker can send the wiki's start cookie to the lab too, which a browser never would: still refused.)
    const atLab = await sites.get(labHost, wikiTicket, { cookie: startCookieFrom(first) });
    expect(atLab.status).toBe(401);
    expect((atLab.headers["set-cookie"] ?? []).join()).not.toContain("__Host-kpi_id_site=");
    // And a lab sign-in's own binding does not make the wiki's ticket the lab's either.
    const labStart = startCookieFrom(await sites.get(labHost, "/"));
    const labState = new URL(String(first.headers.location)).searchParams.get("state") ?? "";
    const forcedState = `${labStart.split("=")[1]}${labState.slice(labState.indexOf("~"))}`;
    const ticketOnly = new URL(wikiTicket, sites.origin(labHost)).searchParams.get("ticketId") ?? "";
    const forced = await sites.get(
      labHost,
      `/_kpi-id/callback?${new URLSearchParams({ ticketId: ticketOnly, state: forcedState })}`,
      {
        cookie: labStart,
      },
    );
    expect(forced.status).toBe(401);
    expect((forced.headers["set-cookie"] ?? []).join()).not.toContain("__Host-kpi_id_site=");
  });

  it("login CSRF: an attacker's own ticket link does not sign someone else in to the site as the attacker", async () => {
    const attacker = await addVisitor(kpiId.test.app, [wiki.id]);
    // The attacker starts a sign-in and keeps the callback link instead of following it.
    const started = await sites.get(wikiHost, "/");
    const kpiIdAnswer = await fetch(String(started.headers.location), {
      redirect: "manual",
      headers: { cookie: attacker.kpiIdCookie },
    });
    const link = pathOf(kpiIdAnswer.headers.get("location") ?? "");
    expect(link.startsWith("/_kpi-id/callback?ticketId=")).toBe(true);
    // The victim's browser opens it, with no start of its own or with its own start's cookie: no site cookie.
    const victimStart = startCookieFrom(await sites.get(wikiHost, "/"));
    for (const cookies of [{}, { cookie: victimStart }] as Record<string, string>[]) {
      const opened = await sites.get(wikiHost, link, cookies);
      expect(opened.status).toBe(302);
      expect(opened.headers.location).toBe(`${sites.origin(wikiHost)}/`);
      expect((opened.headers["set-cookie"] ?? []).join()).not.toContain("__Host-kpi_id_site=");
    }
  });

  it("never sends the person elsewhere: the way back stays on the protected host", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    for (const elsewhere of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]) {
      const signOut = await sites.get(wikiHost, `/_kpi-id/sign-out?${new URLSearchParams({ rd: elsewhere })}`, {
        cookie: siteCookie,
      });
      expect(signOut.status).toBe(302);
      expect(signOut.headers.location).toBe(`${sites.origin(wikiHost)}/`);
    }
    // A start asked for with another origin as the address: the state is the host's front page.
    const start = await kpiId.test.app.inject({
      url: forwardAuthPaths.start,
      headers: { "x-kpi-id-application": wiki.id, "x-original-url": "https://evil.example/phish" },
    });
    expect(start.statusCode).toBe(302);
    const state = new URL(String(start.headers.location)).searchParams.get("state") ?? "";
    expect(state.slice(state.indexOf("~") + 1)).toBe(`${sites.origin(wikiHost)}/`);
  });

  it("sign-out CSRF: a link on another site, through nginx, leaves the person signed in to the host", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    // What a browser sends for a top-level link on evil.example: the Lax cookie goes with it.
    const forced = await sites.get(wikiHost, "/_kpi-id/sign-out?rd=/", {
      cookie: siteCookie,
      "sec-fetch-site": "cross-site",
      referer: "https://evil.example/",
    });
    expect(forced.status).toBe(302);
    expect(forced.headers["set-cookie"]).toBeUndefined();
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(200);
  });

  it("an application not set up for nginx, or a made-up one, answers 403 and no one is let in", async () => {
    const { application: ordinary } = await addApplication(kpiId.test.app);
    for (const id of [ordinary.id, "not-an-id", "00000000-0000-4000-8000-000000000000"]) {
      const answer = await checkDirectly({ "x-kpi-id-application": id });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: "forward_auth.not_configured" });
    }
    expect((await checkDirectly({})).statusCode).toBe(403);
  });
});
