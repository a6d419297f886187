import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccess } from "../../../src/model/admission/applications.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { createListeningTestApp, type ListeningTestApp } from "../../support/listening.ts";
import { freePort, type RunningSites, startProtectedSites } from "../../support/nginx-site.ts";
import { addProtectedSite, addVisitor, pathOf, visitSigningIn } from "../../support/nginx-visit.ts";

/**
 * Issue 59, point 2: a site that speaks no sign-in protocol, behind the nginx block docs/nginx-auth-request.md
 * documents (run as written), with KPI ID answering nginx's auth_request.
 */
describe.each(aboveModelDatabases)("a site behind nginx auth_request (%s)", (kind) => {
  let kpiId: ListeningTestApp;
  let sites: RunningSites;
  let wiki: { id: string };
  let dashboard: { id: string; name: string };
  const host = "wiki.kpi.ua";
  const dashboardHost = "dash.kpi.ua";

  beforeAll(async () => {
    kpiId = await createListeningTestApp(kind, { protocols: ["forward-auth", "tickets"] });
    const port = await freePort();
    wiki = await addProtectedSite(kpiId.test.app, `https://${host}:${port}`);
    dashboard = await addProtectedSite(kpiId.test.app, `https://${dashboardHost}:${port}`);
    sites = await startProtectedSites(kpiId.origin, port, [
      { host, applicationId: wiki.id },
      { host: dashboardHost, applicationId: dashboard.id },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sites?.stop();
    await kpiId?.test.close();
  });

  it("sends a person without the host's cookie to sign in, and back to the address they asked for", async () => {
    const asked = "/docs/guide?page=2&lang=uk";
    const first = await sites.get(host, asked);
    expect(first.status).toBe(302);
    const toKpiId = new URL(String(first.headers.location));
    expect(toKpiId.origin).toBe(kpiId.origin);
    expect(toKpiId.pathname).toBe("/api/app-redirect");
    expect(toKpiId.searchParams.get("appId")).toBe(wiki.id);
    // The state: a value bound to this browser by a cookie on the host, then the way back.
    expect(toKpiId.searchParams.get("state")).toMatch(/^[\w-]{22}~/);
    expect(toKpiId.searchParams.get("state")?.endsWith(`~${sites.origin(host)}${asked}`)).toBe(true);

    // Not signed in at KPI ID either: its sign-in page, keeping the way back.
    const signIn = await fetch(toKpiId, { redirect: "manual" });
    expect(signIn.status).toBe(302);
    const signInPage = new URL(signIn.headers.get("location") ?? "", kpiId.origin);
    expect(signInPage.pathname).toBe("/uk/");
    expect(signInPage.searchParams.get("state")).toBe(toKpiId.searchParams.get("state"));

    // Signed in: the ticket comes back through the host, which gets its own cookie and the original address.
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const round = await visitSigningIn(sites, host, asked, visitor.kpiIdCookie);
    expect(round.toCallback.startsWith(`${sites.origin(host)}/_kpi-id/callback?ticketId=`)).toBe(true);
    expect(round.callback?.status).toBe(302);
    expect(round.callback?.headers.location).toBe(`${sites.origin(host)}${asked}`);
    const setCookie = (round.callback?.headers["set-cookie"] ?? []).join("\n");
    expect(setCookie).toMatch(/^__Host-kpi_id_site=[\w-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax$/m);
    // The start's binding cookie is spent.
    expect(setCookie).toMatch(/^__Host-kpi_id_site_start=; Max-Age=0;/m);
    // KPI ID's own session cookie never goes to the protected host.
    expect(setCookie).not.toContain("kpi_id_session");

    const page = await sites.get(host, asked, { cookie: round.siteCookie });
    expect(page.status).toBe(200);
    const received = sites.received(page);
    expect(received.path).toBe(asked);
    expect(received.headers).toMatchObject({
      "x-kpi-id-user-id": visitor.person.id,
      "x-kpi-id-username": visitor.username,
      "x-kpi-id-email": `${visitor.username}@kpi.ua`,
      "x-remote-user": visitor.username,
      "remote-user": visitor.username,
    });
    // The Ukrainian name arrives percent-encoded (UTF-8), and decodes back to itself.
    const name = String(received.headers["x-kpi-id-name"]);
    expect(name).toMatch(/^[\x20-\x7e]+$/);
    expect(decodeURIComponent(name)).toBe(visitor.person.full_name);
  });

  it("passes the person's affiliations from their records: comma-separated, in eduPerson's order", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { db } = kpiId.test.app;
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    // No record yet: nginx sends the site no affiliations header at all (an empty value is not passed on).
    const before = sites.received(await sites.get(host, "/", { cookie: siteCookie }));
    expect(before.headers["x-kpi-id-user-id"]).toBe(visitor.person.id);
    expect(before.headers).not.toHaveProperty("x-kpi-id-affiliations");

    // A student who also teaches: the records change, and the very next request carries them.
    await db
      .insertInto("student_records")
      .values({ user_id: visitor.person.id, student_id: "KV-59", status: "studying", source: "csv" })
      .execute();
    await db
      .insertInto("employee_positions")
      .values({ user_id: visitor.person.id, employee_id: "E-59", category: "faculty", status: "active", source: "csv" })
      .execute();
    const after = sites.received(await sites.get(host, "/", { cookie: siteCookie }));
    expect(after.headers["x-kpi-id-affiliations"]).toBe("student,faculty,employee,member");
    // A client's own value never gets through.
    const forged = await sites.get(host, "/", { cookie: siteCookie, "x-kpi-id-affiliations": "staff,admin" });
    expect(sites.received(forged).headers["x-kpi-id-affiliations"]).toBe("student,faculty,employee,member");
  });

  it("sends only the headers `kpi-id app nginx --headers` names, from the next request on", async () => {
    const visitor = await addVisitor(kpiId.test.app, [dashboard.id]);
    const { siteCookie } = await visitSigningIn(sites, dashboardHost, "/", visitor.kpiIdCookie);
    const asked = { cookie: siteCookie, "x-kpi-id-email": "rector@kpi.ua" };
    const all = sites.received(await sites.get(dashboardHost, "/", asked));
    expect(all.headers["x-kpi-id-email"]).toBe(`${visitor.username}@kpi.ua`);

    // The operator narrows the dashboard's headers: no e-mail. The running server hears of it at once.
    const narrowed = await runCliOn(kpiId.test.database.handle, [
      ...["app", "nginx", "--app", dashboard.name, "--headers", "user-id,username,name,affiliations"],
    ]);
    expect(narrowed.code, narrowed.stderr).toBe(0);
    const page = await sites.get(dashboardHost, "/", asked);
    expect(page.status).toBe(200);
    const { headers } = sites.received(page);
    // Neither KPI ID's value nor the client's forged one reaches the site.
    expect(headers).not.toHaveProperty("x-kpi-id-email");
    expect(JSON.stringify(headers)).not.toContain("@kpi.ua");
    expect(headers).toMatchObject({
      "x-kpi-id-user-id": visitor.person.id,
      "x-kpi-id-username": visitor.username,
      "x-remote-user": visitor.username,
    });
    expect(decodeURIComponent(String(headers["x-kpi-id-name"]))).toBe(visitor.person.full_name);
    // The other site keeps every header it was given.
    const wikiVisitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const wikiRound = await visitSigningIn(sites, host, "/", wikiVisitor.kpiIdCookie);
    const wikiPage = sites.received(await sites.get(host, "/", { cookie: wikiRound.siteCookie }));
    expect(wikiPage.headers["x-kpi-id-email"]).toBe(`${wikiVisitor.username}@kpi.ua`);
  });

  it("passes the site only nginx's values: a client's X-Remote-User never arrives", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    const forged = {
      cookie: siteCookie,
      "x-remote-user": "admin",
      "remote-user": "admin",
      "x-kpi-id-user-id": "00000000-0000-0000-0000-000000000000",
      "x-kpi-id-email": "rector@kpi.ua",
    };
    const page = await sites.get(host, "/", forged);
    expect(page.status).toBe(200);
    const { headers } = sites.received(page);
    expect(headers["x-remote-user"]).toBe(visitor.username);
    expect(headers["remote-user"]).toBe(visitor.username);
    expect(headers["x-kpi-id-user-id"]).toBe(visitor.person.id);
    expect(headers["x-kpi-id-email"]).toBe(`${visitor.username}@kpi.ua`);
    expect(JSON.stringify(headers)).not.toContain("admin");
    expect(JSON.stringify(headers)).not.toContain("rector");

    // Without the host's cookie, forged headers get nobody in.
    const anonymous = await sites.get(host, "/", { "x-remote-user": "admin", "x-kpi-id-user-id": visitor.person.id });
    expect(anonymous.status).toBe(302);
  });

  it("guards a form posted to the site too: the site gets the POST and its body, with the person", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const posted = await sites.send(
      host,
      "/comments",
      { ...form, cookie: siteCookie },
      { method: "POST", body: "text=hi" },
    );
    expect(posted.status).toBe(200);
    expect(sites.received(posted)).toMatchObject({
      method: "POST",
      path: "/comments",
      body: "text=hi",
      headers: { "x-kpi-id-user-id": visitor.person.id },
    });
    // Without the host's cookie the form never reaches the site: the person is sent to sign in.
    const anonymous = await sites.send(host, "/comments", form, { method: "POST", body: "text=hi" });
    expect(anonymous.status).toBe(302);
    expect(pathOf(String(anonymous.headers.location)).startsWith("/api/app-redirect?")).toBe(true);
  });

  it("shows nginx's 403 page to a person who loses access, at the very next request", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    expect((await sites.get(host, "/", { cookie: siteCookie })).status).toBe(200);
    await revokeAccess(kpiId.test.app.db, visitor.person.id, wiki.id);
    const refused = await sites.get(host, "/", { cookie: siteCookie });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("403 Forbidden");
  });

  it("a person who never had access gets no cookie: KPI ID's own page says why", async () => {
    const outsider = await addVisitor(kpiId.test.app, []);
    const round = await visitSigningIn(sites, host, "/", outsider.kpiIdCookie);
    expect(round.kpiId.status).toBe(302);
    expect(round.toCallback).toBe(`/uk/apps?appId=${wiki.id}`);
    expect(round.siteCookie).toBe("");
  });

  it("keeps a person busy on the site signed in: each visit is a use of the KPI ID session", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    const { db } = kpiId.test.app;
    // The session last used two minutes ago and about to go idle.
    const soon = new Date(Date.now() + 30_000);
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(Date.now() - 120_000), idle_expires_at: soon })
      .where("user_id", "=", visitor.person.id)
      .execute();
    expect((await sites.get(host, "/", { cookie: siteCookie })).status).toBe(200);
    const session = await db
      .selectFrom("sessions")
      .select("idle_expires_at")
      .where("user_id", "=", visitor.person.id)
      .executeTakeFirstOrThrow();
    expect(session.idle_expires_at.getTime()).toBeGreaterThan(soon.getTime() + 60_000);
  });

  it("signs out of the host: the cookie is cleared and no longer works", async () => {
    const visitor = await addVisitor(kpiId.test.app, [wiki.id]);
    const { siteCookie } = await visitSigningIn(sites, host, "/", visitor.kpiIdCookie);
    // The host's own sign-out link, followed in a browser: Fetch Metadata says it came from the host itself.
    const signOut = await sites.get(host, "/_kpi-id/sign-out?rd=/bye", {
      cookie: siteCookie,
      "sec-fetch-site": "same-origin",
    });
    expect(signOut.status).toBe(302);
    expect(signOut.headers.location).toBe(`${sites.origin(host)}/bye`);
    expect((signOut.headers["set-cookie"] ?? []).join()).toMatch(/^__Host-kpi_id_site=;.*Expires=Thu, 01 Jan 1970/);
    const after = await sites.get(host, "/", { cookie: siteCookie });
    expect(after.status).toBe(302);
    expect(pathOf(String(after.headers.location)).startsWith("/api/app-redirect?")).toBe(true);
  });
});
