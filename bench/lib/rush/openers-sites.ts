import { randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { forwardAuthPaths } from "@kpi-id/contracts";
import { type Browser, call, HttpError } from "./browser.ts";
import { assumptions } from "./campus.ts";
import type { Recorder } from "./open-loop.ts";
import type { RushCampus } from "./rush-campus.ts";

// Opening a SAML service provider (SP-initiated, HTTP-Redirect in, HTTP-POST out) and a site behind nginx's
// auth_request, each timed under the label the step tables print; false when a step failed (it is recorded).

/** Where KPI ID sends the browser on: a 303, or a page's meta refresh (its post-form pages). */
function onwardOf(response: Response, body: string): string | undefined {
  if (response.status === 303) return response.headers.get("location") ?? undefined;
  return /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(body)?.[1]?.replaceAll("&amp;", "&");
}

/**
 * An unsigned AuthnRequest by HTTP-Redirect (as a Shibboleth SP sends by default), and KPI ID's signed answer, read
 * as far as its status: the SP's own check of the signature is the SP's cost, not KPI ID's.
 */
export async function openWithSaml(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const sp = campus.samlServiceProvider;
  const requestId = `_${randomBytes(16).toString("hex")}`;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${requestId}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${campus.origin}/saml/sso" ` +
    `AssertionConsumerServiceURL="${sp.acsUrl}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${sp.entityId}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient" AllowCreate="true"/>` +
    "</samlp:AuthnRequest>";
  const query = new URLSearchParams({ SAMLRequest: deflateRawSync(xml).toString("base64"), RelayState: "ss:mem:1" });
  const answered = await recorder.time("saml: sso", async () => {
    let response = await browser.request(`/saml/sso?${query}`, {}, [200, 303]);
    let body = await response.text();
    for (let hop = 0; hop < 3; hop++) {
      const onward = onwardOf(response, body);
      if (!onward) break;
      response = await browser.request(onward, {}, [200, 303]);
      body = await response.text();
    }
    const encoded = /name="SAMLResponse" value="([^"]*)"/.exec(body)?.[1]?.replaceAll("&#43;", "+");
    if (!encoded) throw new HttpError(`no SAMLResponse form: ${body.slice(0, 200)}`);
    const answer = Buffer.from(encoded, "base64").toString("utf8");
    if (!/StatusCode Value="urn:oasis:names:tc:SAML:2\.0:status:Success"/.test(answer))
      throw new HttpError(`SAML status not Success: ${answer.slice(0, 300)}`);
    if (!answer.includes(`InResponseTo="${requestId}"`)) throw new HttpError("SAML answer to another request");
    return true;
  });
  return answered === true;
}

function cookiePair(response: Response, name: RegExp): string {
  const line = response.headers.getSetCookie().find((each) => name.test(each.split("=")[0] ?? ""));
  if (!line) throw new HttpError(`no ${name.source} cookie (${response.status})`);
  return line.split(";")[0] ?? "";
}

/**
 * A site behind nginx: the first page's auth_request refused (no cookie of the host's yet), nginx's start, KPI ID's
 * ticket with the person's session, the callback setting the host's cookie, then a subrequest for each page.
 */
export async function openBehindNginx(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<boolean> {
  const site = campus.protectedSite;
  const page = `${site.origin}/timetable`;
  // As the documented nginx block passes requests on: the application, the original address, the client's address.
  const asNginx = (originalUrl: string, cookie?: string) => ({
    headers: {
      "x-kpi-id-application": site.id,
      "x-original-url": originalUrl,
      ...(cookie ? { cookie } : {}),
      ...(browser.address ? { "x-forwarded-for": browser.address } : {}),
    },
  });
  const check = (cookie: string | undefined, expected: number) =>
    recorder.time("forward-auth: check", async () => {
      await (await call(`${campus.origin}${forwardAuthPaths.check}`, asNginx(page, cookie), [expected])).text();
      return true;
    });
  if (!(await check(undefined, 401))) return false;
  const siteCookie = await recorder.time("forward-auth: sign-in", async () => {
    const start = await call(`${campus.origin}${forwardAuthPaths.start}`, asNginx(page), [302]);
    await start.arrayBuffer();
    const startCookie = cookiePair(start, /kpi_id_site_start$/);
    const back = await browser.leave(start.headers.get("location") ?? "");
    const callback = await call(
      `${campus.origin}${forwardAuthPaths.callback}${back.search}`,
      asNginx(back.href, startCookie),
      [302],
    );
    await callback.arrayBuffer();
    return cookiePair(callback, /kpi_id_site$/);
  });
  if (!siteCookie) return false;
  for (let each = 0; each < assumptions.forwardAuthChecksPerOpen; each++) {
    if (!(await check(siteCookie, 200))) return false;
  }
  return true;
}
