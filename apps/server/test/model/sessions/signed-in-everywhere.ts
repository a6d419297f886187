import { createServer } from "node:http";
import { casPaths, forwardAuthPaths } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { formOf } from "../../protocols/saml/browse.ts";
import { type NodeSamlSp, nodeSamlSp } from "../../protocols/saml/node-saml-sp.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { casApplication, serviceTicket, validateAt } from "../../support/cas.ts";
import { freePort } from "../../support/listening.ts";
import { addProtectedSite, signInWithoutNginx } from "../../support/nginx-visit.ts";
// The OpenID Connect client's side, as the other OpenID Connect tests drive it.
import * as oidc from "../../support/oidc.ts";

export const password = "one browser, four applications";
export const redirectUri = "https://rp.example.edu/callback";
export const postLogoutUri = "https://rp.example.edu/signed-out";
const siteOrigin = "https://wiki.example.edu";

/** A CAS service's single logout endpoint on loopback: keeps the SessionIndex (the ticket) of every LogoutRequest. */
async function startCasService() {
  const sessionIndexes: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const logoutRequest = new URLSearchParams(body).get("logoutRequest");
      if (request.method === "POST" && logoutRequest)
        sessionIndexes.push(/<samlp:SessionIndex>([^<]+)</.exec(logoutRequest)?.[1] ?? "");
      response.end("ok");
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/moodle/`, sessionIndexes, close: () => server.close() };
}

/**
 * One application of each protocol, each with its own way of being told: an OpenID Connect client with a
 * back-channel logout URI, a SAML SP (node-saml, front channel), a CAS service that asked for single logout, a
 * site behind nginx (forward-auth, whose cookie stops working).
 */
export async function fourApplications(app: FastifyInstance, origin: string, issuer: string) {
  const backchannel = await oidc.startBackchannelReceiver();
  const cas = await startCasService();
  const relyingParty = await oidc.addOidcClient(app, {
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [postLogoutUri],
    scopes: ["openid"],
    backchannelLogoutUri: backchannel.url,
    firstParty: true,
  });
  const config = await oidc.discover(issuer, relyingParty.application.id, relyingParty.secret);
  const certificate = (await app.saml.currentKeys()).signing?.certificate ?? "";
  const sp = nodeSamlSp({ baseUrl: "https://library.example.edu", idpUrl: origin, idpCertificate: certificate });
  await upsertServiceProvider(app.db, await parseSpMetadata(sp.metadata), "manual", { firstParty: true }, new Date());
  const casService = await casApplication(app, cas.url, { singleLogout: true });
  const site = await addProtectedSite(app, siteOrigin);
  const close = () => {
    backchannel.close();
    cas.close();
  };
  return { app, origin, config, relyingParty, sp, backchannel, cas, casService, site, close };
}

export type FourApplications = Awaited<ReturnType<typeof fourApplications>>;

/** A browser's cookies as one Cookie header, for requests made with app.inject. */
export const cookieHeader = (browser: oidc.TestBrowser) =>
  [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");

/**
 * A browser at KPI ID (app.inject, relative to its origin): asks for the address and follows the Single Logout
 * steps (/saml/…) it is sent to; answers the first answer that sends it elsewhere or shows a form. An address
 * off KPI ID is not asked: undefined.
 */
export async function browse(apps: FourApplications, url: string, cookie = "") {
  const ours = (address: string) => address.startsWith("/") || address.startsWith(`${apps.origin}/`);
  if (!ours(url)) return undefined;
  let answer = await apps.app.inject({ url: url.replace(apps.origin, ""), headers: { cookie } });
  for (let hop = 0; hop < 5; hop += 1) {
    const location = answer.statusCode === 302 || answer.statusCode === 303 ? String(answer.headers.location) : "";
    const onward = location || (/<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(answer.body)?.[1] ?? "");
    if (!ours(onward) || !onward.replace(apps.origin, "").startsWith("/saml/")) return answer;
    answer = await apps.app.inject({ url: onward.replace(apps.origin, ""), headers: { cookie } });
  }
  return answer;
}

/** A new person, signed in to KPI ID in one browser and, from it, to each of the four applications. */
export async function signedInEverywhere(apps: FourApplications, username: string) {
  const { app, origin } = apps;
  const person = await addPerson(app, { username, fullName: "Олена Коваленко" }, password);
  for (const application of [apps.relyingParty.application.id, apps.casService.application.id, apps.site.id])
    await grantAccess(app.db, person.id, application);
  const browser = new oidc.TestBrowser(origin);
  browser.setCookie(await signIn(app, username, password, { origin }));

  const start = await oidc.startSignIn(apps.config, redirectUri, "openid");
  const { leftTo } = await browser.follow(start.url.href);
  if (!leftTo) throw new Error("not signed in to the OpenID Connect client");
  const tokens = await oidc.client.authorizationCodeGrant(apps.config, leftTo, {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
  });
  const sid = String(tokens.claims()?.sid);

  const samlStart = await apps.sp.saml.getAuthorizeUrlAsync("", undefined, {});
  const samlForm = formOf((await browse(apps, samlStart, cookieHeader(browser)))?.body ?? "");
  const { profile } = await apps.sp.saml.validatePostResponseAsync({ SAMLResponse: samlForm.SAMLResponse });
  if (!profile) throw new Error("not signed in to the SAML SP");

  const ticket = await serviceTicket(app, cookieHeader(browser), apps.cas.url);
  const validated = await validateAt(app, casPaths.p3ServiceValidate, { service: apps.cas.url, ticket });
  if (!validated.body.includes("authenticationSuccess")) throw new Error("the CAS ticket did not validate");

  const siteCookie = await signInWithoutNginx(app, apps.site.id, siteOrigin, cookieHeader(browser));
  return { person, browser, sid, samlProfile: profile, ticket, siteCookie };
}

export type SignedIn = Awaited<ReturnType<typeof signedInEverywhere>>;

/** What nginx hears at the site's next request with its cookie: 200 while the KPI ID session lives, else 401. */
export async function siteCheck(apps: FourApplications, signedIn: SignedIn) {
  const answer = await apps.app.inject({
    url: forwardAuthPaths.check,
    headers: { "x-kpi-id-application": apps.site.id, "x-original-url": `${siteOrigin}/`, cookie: signedIn.siteCookie },
  });
  return answer.statusCode;
}

/**
 * The browser at a front-channel step: the SP takes KPI ID's LogoutRequest (node-saml checks its signature), and
 * answers with its LogoutResponse, which the browser carries back. Answers the NameID the SP was told to sign out
 * and KPI ID's answer after the round.
 */
export async function spTold(apps: FourApplications, sp: NodeSamlSp, step: { body: string } | undefined) {
  const form = formOf(step?.body ?? "");
  if (form.action !== sp.sloUrl) return undefined;
  const { profile } = await sp.saml.validatePostRequestAsync({
    SAMLRequest: form.SAMLRequest,
    RelayState: form.RelayState ?? "",
  });
  if (!profile) throw new Error("the SP did not accept the LogoutRequest");
  const answer = await sp.saml.getLogoutResponseUrlAsync(profile, form.RelayState ?? "", {}, true);
  return { nameId: profile.nameID, after: await browse(apps, answer) };
}
