import { readFileSync } from "node:fs";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustExtraCas } from "../../src/platform/http/outbound-trust.ts";
import { type ApachePlaces, prepareApache, type RunningApache, startApache } from "../support/apache-examples.ts";
import { addPerson, grantAccess, signIn } from "../support/campus.ts";
import { casApplication } from "../support/cas.ts";
import { runCliOn } from "../support/cli.ts";
import { sessionCookieOf } from "../support/console.ts";
import { aboveModelDatabase } from "../support/databases.ts";
import { documentedBlock, kpiIdCommands, replaceEvery } from "../support/doc-blocks.ts";
import { applicationView, forgedHeaders, forgedValuesIn, identitySeen } from "../support/forged-headers.ts";
import { HttpVisitor } from "../support/http-visitor.ts";
import { createListeningTestApp, type ListeningTestApp } from "../support/listening.ts";
import { freePort, type RunningSites, startProtectedSites } from "../support/nginx-site.ts";
import { addProtectedSite, addVisitor, visitSigningIn } from "../support/nginx-visit.ts";

/**
 * Issue 73 part 2: every web-server example the integration guides print, run as printed (docs/cas.md's
 * mod_auth_cas block, docs/mod-auth-openidc.md's virtual host, docs/nginx-auth-request.md's server block) in front of
 * a page that answers with what it received. A signed-in person sends headers of every name the example passes the
 * person in; the application must see the real value or none, never the forged one. One Apache serves both Apache
 * examples; nginx is the forward-auth suite's own harness (its block's substitutions are in nginx-site.ts).
 */

type Example = "cas.md" | "mod-auth-openidc.md" | "mod-auth-openidc.md registration";

/**
 * Everything this test changes in a documented block: only what each doc tells the reader to put their own in for
 * (KPI ID's address, the site's name, port, certificate and folders, the client `app create` printed). Each value
 * must be in its block (replaceEvery throws otherwise), so a doc that changes shape fails here, not silently.
 */
function substitutionTable(places: ApachePlaces, kpiId: string, client = { id: "", secret: "" }) {
  const table: Record<Example, [written: string, replacement: string][]> = {
    "cas.md": [
      ["https://id.kpi.ua", kpiId],
      ["/var/cache/apache2/mod_auth_cas/", `${places.casCookieDir}/`],
    ],
    "mod-auth-openidc.md": [
      ["<VirtualHost *:443>", `<VirtualHost 127.0.0.1:${places.oidcPort}>`],
      ["https://library.kpi.ua", places.oidcOrigin],
      ["ServerName library.kpi.ua", "ServerName localhost"],
      ["/var/www/library", places.oidcDocumentRoot],
      ["/etc/ssl/certs/library.kpi.ua.pem", places.certFile],
      ["/etc/ssl/private/library.kpi.ua.key", places.keyFile],
      ["https://id.kpi.ua", kpiId],
      ["CLIENT-ID", client.id],
      ["CLIENT-SECRET", client.secret],
      ["CRYPTO-PASSPHRASE", `test-${client.secret}`],
    ],
    "mod-auth-openidc.md registration": [["https://library.kpi.ua", places.oidcOrigin]],
  };
  return table;
}

const render = (block: string, substitutions: [string, string][]) =>
  substitutions.reduce((text, [written, replacement]) => replaceEvery(text, written, replacement), block);

/** CAS-User, CAS-employeeId…, REMOTE_USER: the names mod_auth_cas passes the person in. */
const casNames = /^CAS_/;
/** OIDC_CLAIM_*, OIDC_access_token…, REMOTE_USER: the names mod_auth_openidc passes the person in. */
const oidcNames = /^OIDC_/;
/** The names docs/nginx-auth-request.md's block sets. */
const nginxNames = /^(X_)?REMOTE_USER$|^X_KPI_ID_/;

describe("every documented web-server example, run as printed, with forged identity headers", () => {
  let kpiId: ListeningTestApp;
  let places: ApachePlaces;
  let apache: RunningApache | undefined;
  let sites: RunningSites | undefined;
  let certificate: string;
  const password = "examples passphrase 1";
  let student: { id: string; username: string };
  let employee: { id: string; username: string };
  const wikiHost = "wiki.kpi.ua";
  let wikiId = "";

  beforeAll(async () => {
    kpiId = await createListeningTestApp(aboveModelDatabase);
    const { app } = kpiId.test;
    places = await prepareApache();
    certificate = readFileSync(places.certFile, "utf8");
    student = await addPerson(
      app,
      { username: "example-student", fullName: "Olena Petrenko", studentId: "KV-7301" },
      password,
    );
    employee = await addPerson(
      app,
      { username: "example-employee", fullName: "Ivan Koval", employeeId: "E-7301" },
      password,
    );
    // docs/cas.md: the site's address registered as a prefix with single logout.
    await casApplication(app, `${places.casOrigin}/`, {
      match: "prefix",
      singleLogout: true,
      people: [student.id, employee.id],
    });
    // docs/mod-auth-openidc.md: the operator's commands as printed, for the site's address.
    const registration = substitutionTable(places, kpiId.origin)["mod-auth-openidc.md registration"];
    const commands = kpiIdCommands(
      render(documentedBlock("mod-auth-openidc.md", "## Registering the site", "sh"), registration),
    );
    const operator = async (command: string[]) => {
      const run = await runCliOn(kpiId.test.database.handle, command);
      if (run.code !== 0) throw new Error(`kpi-id ${command.join(" ")}: ${run.stderr}`);
      return run;
    };
    const [create = [], ...rest] = commands;
    const client = (await operator([...create, "--json"])).json<{ id: string; secret: string }>();
    for (const command of rest) await operator(command);

    const table = substitutionTable(places, kpiId.origin, client);
    const casBlock = render(documentedBlock("cas.md", "## Apache mod_auth_cas", "apache"), table["cas.md"]);
    const oidcSite = render(
      documentedBlock("mod-auth-openidc.md", "## The configuration", "apache"),
      table["mod-auth-openidc.md"],
    );
    apache = await startApache(places, casBlock, oidcSite);

    const port = await freePort();
    wikiId = (await addProtectedSite(app, `https://${wikiHost}:${port}`)).id;
    sites = await startProtectedSites(kpiId.origin, port, [{ host: wikiHost, applicationId: wikiId }]);
  }, 90_000);
  afterAll(async () => {
    await sites?.stop();
    await apache?.stop();
    await kpiId?.test.close();
  });

  /** A visitor holding a KPI ID session of the person, as after signing in on KPI ID's own page. */
  async function signedIn(person: { id: string }): Promise<HttpVisitor> {
    const visitor = new HttpVisitor([certificate]);
    visitor.addCookie(kpiId.origin, await sessionCookieOf(kpiId.test.app, person.id, "PASSWORD"));
    return visitor;
  }

  const casPage = (path: string) => `${places.casOrigin}${path}`;

  it("mod_auth_cas builds the service address from ServerName, not from the address the browser typed", async () => {
    const visitor = await signedIn(student);
    const typed = await visitor.get(`https://127.0.0.1:${places.casPort}/secure/`);
    expect(typed.status).toBe(302);
    expect(new URL(typed.location).searchParams.get("service")).toBe(casPage("/secure/"));
  });

  it("mod_auth_cas: a signed-in student's forged CAS-User and CAS-employeeId never reach /secure/", async () => {
    const visitor = await signedIn(student);
    const { answer } = await visitor.follow(casPage("/secure/"), forgedHeaders.modAuthCas);
    const seen = identitySeen(applicationView(answer), casNames);
    expect(forgedValuesIn(seen, forgedHeaders.modAuthCas)).toEqual([]);
    expect(seen).toMatchObject({ "env REMOTE_USER": student.username, "header CAS_USER": student.username });
    // Over https mod_auth_cas's cookie is MOD_AUTH_CAS_S (docs/cas.md's gateway rule must look for it).
    expect(visitor.cookieNames(places.casOrigin)).toContain("MOD_AUTH_CAS_S");
  });

  it("mod_auth_cas: /staff/ passes an employee the real CAS- headers, never forged ones", async () => {
    const visitor = await signedIn(employee);
    const { answer } = await visitor.follow(casPage("/staff/"), forgedHeaders.modAuthCas);
    const seen = identitySeen(applicationView(answer), casNames);
    expect(forgedValuesIn(seen, forgedHeaders.modAuthCas)).toEqual([]);
    expect(seen).toMatchObject({ "header CAS_USER": employee.username, "header CAS_EMPLOYEEID": "E-7301" });
  });

  it("mod_auth_cas: /admin/ (CASRenew) after a new sign-in sees the person, never forged headers", async () => {
    const visitor = await signedIn(student);
    const onKpiIdPages = (url: URL) => url.origin === kpiId.origin && !url.pathname.startsWith("/cas/");
    const asked = await visitor.follow(casPage("/admin/"), forgedHeaders.modAuthCas, onKpiIdPages);
    // The sign-in screen although KPI ID has a session; the login waits at its /cas/continue/ address.
    expect(new URL(asked.answer.location).searchParams.get("reauth")).toBe("1");
    const waiting = asked.visited.find((url) => new URL(url).pathname.startsWith("/cas/continue/")) ?? "";
    visitor.addCookie(kpiId.origin, await signIn(kpiId.test.app, student.username, password, { origin: kpiId.origin }));
    const { answer } = await visitor.follow(waiting, forgedHeaders.modAuthCas);
    const seen = identitySeen(applicationView(answer), casNames);
    expect(forgedValuesIn(seen, forgedHeaders.modAuthCas)).toEqual([]);
    expect(seen).toMatchObject({ "header CAS_USER": student.username, "header CAS_ISFROMNEWLOGIN": "true" });
  });

  it("mod_auth_cas: /news/ (CASGateway) shows an anonymous visitor the public copy without forged headers, and recognises them once signed in", async () => {
    const visitor = new HttpVisitor([certificate]);
    const anonymous = await visitor.follow(casPage("/news/"));
    expect(
      anonymous.visited.some((url) => url.startsWith(`${kpiId.origin}/cas/login?`) && url.includes("gateway=true")),
    ).toBe(true);
    expect(identitySeen(applicationView(anonymous.answer), casNames)).toEqual({});
    // The public copy runs no mod_auth_cas, so nothing scrubs there: Apache refuses such a request instead (403).
    const forged = (await visitor.follow(casPage("/news/"), forgedHeaders.modAuthCas)).answer;
    const seenForged = forged.status === 403 ? {} : identitySeen(applicationView(forged), casNames);
    expect(forgedValuesIn(seenForged, forgedHeaders.modAuthCas)).toEqual([]);

    // The visitor signs in (another protected page); the gateway cookie stays on /news/, beside MOD_AUTH_CAS_S.
    visitor.addCookie(kpiId.origin, await sessionCookieOf(kpiId.test.app, student.id, "PASSWORD"));
    applicationView((await visitor.follow(casPage("/secure/"))).answer);
    const { answer } = await visitor.follow(casPage("/news/"), forgedHeaders.modAuthCas);
    const seen = identitySeen(applicationView(answer), casNames);
    expect(forgedValuesIn(seen, forgedHeaders.modAuthCas)).toEqual([]);
    expect(seen).toMatchObject({ "env REMOTE_USER": student.username, "header CAS_USER": student.username });
  });

  it("mod_auth_openidc: a signed-in student's forged OIDC_CLAIM_* and access token never reach /protected/", async () => {
    const visitor = await signedIn(student);
    const { answer } = await visitor.follow(`${places.oidcOrigin}/protected/`, forgedHeaders.modAuthOpenidc);
    const seen = identitySeen(applicationView(answer), oidcNames);
    expect(forgedValuesIn(seen, forgedHeaders.modAuthOpenidc)).toEqual([]);
    expect(seen).toMatchObject({
      "env REMOTE_USER": student.id,
      "header OIDC_CLAIM_SUB": student.id,
      "header OIDC_CLAIM_NAME": "Olena Petrenko",
    });
  });

  it("signing out through mod_auth_openidc (OpenID Connect end_session) reaches mod_auth_cas's single logout and the nginx site (issue 74)", async () => {
    if (!sites) throw new Error("nginx did not start");
    // One browser: KPI ID's session, then mod_auth_cas, mod_auth_openidc and the site behind nginx signed in from it.
    const kpiIdCookie = await sessionCookieOf(kpiId.test.app, student.id, "PASSWORD");
    const visitor = new HttpVisitor([certificate]);
    visitor.addCookie(kpiId.origin, kpiIdCookie);
    const secure = casPage("/secure/");
    expect(identitySeen(applicationView((await visitor.follow(secure)).answer), casNames)).toMatchObject({
      "env REMOTE_USER": student.username,
    });
    const protectedPage = `${places.oidcOrigin}/protected/`;
    expect(identitySeen(applicationView((await visitor.follow(protectedPage)).answer), oidcNames)).toMatchObject({
      "env REMOTE_USER": student.id,
    });
    await grantAccess(kpiId.test.app.db, student.id, wikiId);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", kpiIdCookie);
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).toBe(200);

    // docs/mod-auth-openidc.md's sign-out link: the module ends its session and sends the browser to KPI ID, which
    // asks; the person says yes. KPI ID trusts the CAS site's certificate (TLS_EXTRA_CA_FILE) to post its logoutRequest.
    const original = tls.getCACertificates("default");
    trustExtraCas(places.certFile);
    try {
      const signedOut = `${places.oidcOrigin}/signed-out.html`;
      const link = `${places.oidcOrigin}/protected/redirect_uri?logout=${encodeURIComponent(signedOut)}`;
      const asked = await visitor.follow(link);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(asked.answer.body)?.[1] ?? "";
      const confirmed = await visitor.post(`${kpiId.origin}/oidc/session/end/confirm`, { xsrf, logout: "yes" });
      expect(confirmed.location).toBe(signedOut);
    } finally {
      tls.setDefaultCACertificates(original);
    }

    // mod_auth_cas took KPI ID's logoutRequest: its cookie opens nothing, and KPI ID has no session to sign in from.
    const onKpiIdPages = (url: URL) => url.origin === kpiId.origin && !url.pathname.startsWith("/cas/");
    const again = await visitor.follow(secure, {}, onKpiIdPages);
    expect(again.visited.some((url) => url.startsWith(`${kpiId.origin}/cas/login?`))).toBe(true);
    expect(onKpiIdPages(new URL(again.answer.location))).toBe(true);
    // The site behind nginx lost its cookie's session with it.
    expect((await sites.get(wikiHost, "/", { cookie: siteCookie })).status).not.toBe(200);
  });

  it("nginx auth_request: forged X-Remote-User and X-KPI-ID-* never reach the site", async () => {
    if (!sites) throw new Error("nginx did not start");
    const visitor = await addVisitor(kpiId.test.app, [wikiId]);
    const { siteCookie } = await visitSigningIn(sites, wikiHost, "/", visitor.kpiIdCookie);
    const page = await sites.get(wikiHost, "/", { cookie: siteCookie, ...forgedHeaders.nginx });
    expect(page.status).toBe(200);
    const seen = identitySeen(sites.received(page), nginxNames);
    expect(forgedValuesIn(seen, forgedHeaders.nginx)).toEqual([]);
    // The visitor has no records: no affiliations header at all, not even the forged one.
    expect(seen).not.toHaveProperty("header X_KPI_ID_AFFILIATIONS");
    expect(seen).toMatchObject({
      "header X_REMOTE_USER": visitor.username,
      "header X_KPI_ID_USER_ID": visitor.person.id,
    });
  });
});
