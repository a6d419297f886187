import { casPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { casApplication, casLogin, ticketIn } from "../../support/cas.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { addStudent } from "../../support/developers.ts";
import { type PathServers, startPathServers } from "../../support/path-servers.ts";

const origin = "https://apps.example.edu";
const prefix = `${origin}/app/`;
const page = { accept: "text/html" };

/**
 * Paths after the prefix that a URL parser keeps under /app/ while some web server reads them elsewhere (issue 73,
 * point 1): nginx decodes %2F and %2E before resolving "..", Tomcat resolves "..;/", IIS takes %5C for "/", a
 * server that decodes twice turns %252f into "/", and nginx merges "//" before resolving "..".
 */
const hostilePaths = [
  "/app/..%2Fdecoy",
  "/app/..%2fdecoy",
  "/app/%2e%2e%2fdecoy",
  "/app/%2E%2E%2Fdecoy",
  "/app/..%5Cdecoy",
  "/app/..%5cdecoy",
  "/app/..;/decoy",
  "/app/.%2e/decoy",
  "/app/..%252fdecoy",
  "/app//../decoy",
  "/app/x/..%2F..%2Fdecoy",
  "/app/%2e%2e;/decoy",
];

/**
 * A CAS prefix covers only the paths that stay under it however a server decodes them: the issue's addresses at the
 * HTTP API, and each one judged by Debian's nginx and Apache themselves (a page inside /app/ answers "inside", any
 * other "outside"): whatever a real server serves outside the prefix gets no ticket.
 */
describe("a CAS prefix and the paths web servers read differently", () => {
  let t: TestApp;
  let servers: PathServers;
  let cookie: string;
  beforeAll(async () => {
    [t, servers] = await Promise.all([
      createTestApp(aboveModelDatabase, {}, { protocols: ["cas"] }),
      startPathServers(),
    ]);
    const student = await addStudent(t.app, "prefix");
    cookie = student.cookie;
    await casApplication(t.app, prefix, { match: "prefix", people: [student.person.id] });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), servers?.stop()]);
  });

  const login = (service: string, extra: Record<string, string> = {}) => casLogin(t.app, cookie, { service, ...extra });

  it("gives a ticket for a path under the prefix, and none for one a server could read outside it", async () => {
    const inside = await login(`${prefix}decoy?id=3`);
    expect(ticketIn(inside.location)).toMatch(/^ST-/);
    for (const path of hostilePaths) {
      const refused = await t.app.inject({
        url: `${casPaths.login}?${new URLSearchParams({ service: `${origin}${path}` })}`,
        headers: { cookie, ...page },
      });
      expect(refused.headers.location, path).toBe("/uk/consent?samlError=cas.service_not_registered");
      const gateway = await login(`${origin}${path}`, { gateway: "true" });
      expect(ticketIn(gateway.location), path).toBe("");
    }
    const tickets = await t.app.db.selectFrom("cas_tickets").select("service").execute();
    expect(tickets.map((ticket) => ticket.service)).toEqual([`${prefix}decoy?id=3`]);
  });

  it("refuses every address that nginx or Apache serves outside /app/, and both serve some of them there", async () => {
    const outsideSomewhere: string[] = [];
    for (const path of ["/app/decoy", ...hostilePaths]) {
      const read = await servers.read(path);
      if (read.nginx === "outside" || read.apache === "outside") outsideSomewhere.push(path);
      const answer = await login(`${origin}${path}`);
      const ticket = ticketIn(answer.location);
      if (read.nginx === "outside" || read.apache === "outside") expect(ticket, path).toBe("");
      else if (path === "/app/decoy") expect(ticket, path).toMatch(/^ST-/);
    }
    // The threat is real on these servers, not only in theory: each serves at least one of them outside.
    expect(outsideSomewhere).toContain("/app/..%2Fdecoy");
    expect(outsideSomewhere).toContain("/app//../decoy");
    expect((await servers.read("/app/..%2Fdecoy")).nginx).toBe("outside");
    expect(Object.values(await servers.read("/app/%2e%2e/decoy"))).toContain("outside");
  });

  it("a service address with a line break or a control character is refused as unregistered, never a 500", async () => {
    const ticketsBefore = (await t.app.db.selectFrom("cas_tickets").select("service").execute()).length;
    // A NUL is no text at all to the query's schema: the login is one without a service (the apps page).
    const refusals: [service: string, refusal: string][] = [
      [`${prefix}a\nb`, "/uk/consent?samlError=cas.service_not_registered"],
      [`${prefix}a\r\nSet-Cookie: x=1`, "/uk/consent?samlError=cas.service_not_registered"],
      [`${prefix}a\tb`, "/uk/consent?samlError=cas.service_not_registered"],
      [`${prefix}\u007f`, "/uk/consent?samlError=cas.service_not_registered"],
      [`${prefix}\u0085`, "/uk/consent?samlError=cas.service_not_registered"],
      [`${prefix}\u0000`, "/uk/apps"],
    ];
    for (const [service, refusal] of refusals) {
      const query = `${casPaths.login}?${new URLSearchParams({ service })}`;
      const refused = await t.app.inject({ url: query, headers: { cookie, ...page } });
      expect([refused.statusCode, refused.headers.location], JSON.stringify(service)).toEqual([
        refusal.startsWith("/uk/apps") ? 302 : 303,
        refusal,
      ]);
      const gateway = await t.app.inject({ url: `${query}&gateway=true`, headers: { cookie, ...page } });
      expect(gateway.statusCode, JSON.stringify(service)).toBeLessThan(500);
      expect(gateway.headers.location, JSON.stringify(service)).toBe(refusal);
      // /logout ignores it: the sign-in page, as for any address that is not a registered service.
      const logout = await t.app.inject({ url: `${casPaths.logout}?${new URLSearchParams({ service })}` });
      expect([logout.statusCode, logout.headers.location]).toEqual([302, "/uk/"]);
    }
    const json = await t.app.inject({ url: `${casPaths.login}?${new URLSearchParams({ service: `${prefix}a\nb` })}` });
    expect([json.statusCode, json.json().code]).toEqual([400, "cas.service_not_registered"]);
    expect(await t.app.db.selectFrom("cas_tickets").select("service").execute()).toHaveLength(ticketsBefore);
  });
});
