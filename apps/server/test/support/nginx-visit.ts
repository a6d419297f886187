import { forwardAuthPaths } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { setForwardAuthHeaders } from "../../src/model/forward-auth/headers.ts";
import { addApplication, addPerson, grantAccess } from "./campus.ts";
import { sessionCookieOf } from "./console.ts";
import { type RunningSites, siteCookieFrom, startCookieFrom } from "./nginx-site.ts";

/** A site behind nginx as an operator registers it: its callback on the host, every person header released. */
export async function addProtectedSite(app: FastifyInstance, origin: string) {
  const { application } = await addApplication(app, `${origin}/_kpi-id/callback`);
  await setForwardAuthHeaders(app.db, application.id, ["user-id", "username", "name", "email", "affiliations"]);
  return application;
}

let personCount = 0;

/** A person with a Ukrainian name and a KPI ID session (as after signing in), allowed into the given sites. */
export async function addVisitor(app: FastifyInstance, allowedInto: string[]) {
  personCount += 1;
  const username = `visitor${personCount}`;
  const person = await addPerson(
    app,
    { username, fullName: `Олена Петренко ${personCount}`, email: `${username}@kpi.ua` },
    "visitor passphrase 1",
  );
  for (const applicationId of allowedInto) await grantAccess(app.db, person.id, applicationId);
  return { person, username, kpiIdCookie: await sessionCookieOf(app, person.id, "PASSWORD") };
}

/** The path and query of an absolute address, as a browser asks for it. */
export function pathOf(address: string): string {
  const url = new URL(address);
  return `${url.pathname}${url.search}`;
}

/**
 * A browser's whole round: the protected address without the host's cookie, nginx's redirect to KPI ID, KPI ID
 * (with the person's KPI ID cookie) back to the host's callback, and the callback setting the host's cookie.
 */
export async function visitSigningIn(sites: RunningSites, host: string, path: string, kpiIdCookie: string) {
  const first = await sites.get(host, path);
  const toKpiId = String(first.headers.location);
  const kpiId = await fetch(toKpiId, { redirect: "manual", headers: { cookie: kpiIdCookie } });
  const toCallback = kpiId.headers.get("location") ?? "";
  // KPI ID may keep the person on its own pages instead (no access): then there is no callback.
  // The start bound the sign-in to this browser with a cookie on the host, which goes back with the callback.
  const startCookie = startCookieFrom(first);
  const callback = toCallback.startsWith(sites.origin(host))
    ? await sites.get(host, pathOf(toCallback), { cookie: startCookie })
    : undefined;
  const siteCookie = callback?.status === 302 ? siteCookieFrom(callback) : "";
  return { first, toKpiId, kpiId, toCallback, callback, siteCookie, startCookie };
}

/**
 * The same round through `app.inject`, as nginx would pass it on (no nginx running): start, KPI ID's app redirect
 * with the person's KPI ID cookie, the callback with the start's cookie. The host's cookie, as a Cookie header.
 */
export async function signInWithoutNginx(app: FastifyInstance, siteId: string, origin: string, kpiIdCookie: string) {
  const start = await app.inject({
    url: forwardAuthPaths.start,
    headers: { "x-kpi-id-application": siteId, "x-original-url": `${origin}/` },
  });
  const toCallback = await app.inject({
    url: pathOf(String(start.headers.location)),
    headers: { cookie: kpiIdCookie },
  });
  const startCookie = start.cookies.find((cookie) => cookie.name === "__Host-kpi_id_site_start");
  const callback = await app.inject({
    url: `${forwardAuthPaths.callback}?${new URL(String(toCallback.headers.location)).searchParams}`,
    headers: {
      "x-kpi-id-application": siteId,
      "x-original-url": String(toCallback.headers.location),
      cookie: `${startCookie?.name}=${startCookie?.value}`,
    },
  });
  const siteCookie = callback.cookies.find((cookie) => cookie.name === "__Host-kpi_id_site");
  return `${siteCookie?.name}=${siteCookie?.value}`;
}
