import { createServer, type Server } from "node:https";
import tls from "node:tls";
import { casPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustExtraCas } from "../../../src/platform/http/outbound-trust.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { signIn } from "../../support/campus.ts";
import { casApplication, casXml, serviceTicket, studentWithService, validateAt } from "../../support/cas.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { makeKeyPair } from "../saml/keys.ts";

/**
 * A CAS service on loopback https, its certificate from a test CA that TLS_EXTRA_CA_FILE trusts (as a campus
 * deployment with its own CA would): the proxy callback (CAS Protocol 3.0 §2.5.4), a proxy ticket to a back end
 * with its chain reported, and the back-channel single logout it asked for.
 */
describe.each(aboveModelDatabases)("CAS proxying and single logout (%s)", (kind) => {
  const original = tls.getCACertificates("default");
  let t: TestApp;
  let server: Server;
  let origin = "";
  const grantingTickets = new Map<string, string>();
  const logoutRequests: string[] = [];
  let callbackStatus = 200;

  beforeAll(async () => {
    const host = makeKeyPair("localhost");
    trustExtraCas(host.certFile);
    server = createServer({ key: host.privateKeyPem, cert: host.certificatePem }, (request, response) => {
      const url = new URL(request.url ?? "/", "https://localhost");
      if (url.pathname === "/pgt") {
        const iou = url.searchParams.get("pgtIou");
        const id = url.searchParams.get("pgtId");
        if (iou && id && callbackStatus === 200) grantingTickets.set(iou, id);
        response.statusCode = callbackStatus;
        return response.end();
      }
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        if (request.method === "POST") logoutRequests.push(new URLSearchParams(body).get("logoutRequest") ?? "");
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    origin = `https://localhost:${typeof address === "object" && address ? address.port : 0}`;
    t = await createTestApp(kind, {}, { protocols: ["cas"] });
  });
  afterAll(async () => {
    tls.setDefaultCACertificates(original);
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it("a proxy-granting ticket reaches the https callback; a proxy ticket to the back end validates with its chain", async () => {
    const service = `${origin}/app/`;
    const backEnd = `${origin}/backend/`;
    const { student } = await studentWithService(t.app, service, { proxy: true });
    await casApplication(t.app, backEnd, { people: [student.person.id] });
    const pgtUrl = `${origin}/pgt`;
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const validated = casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, pgtUrl })).body);
    const iou = validated.text("proxyGrantingTicket") ?? "";
    expect(iou).toMatch(/^PGTIOU-[0-9a-f]{64}$/);
    const pgt = grantingTickets.get(iou) ?? "";
    expect(pgt).toMatch(/^PGT-[0-9a-f]{64}$/);

    const proxied = casXml((await validateAt(t.app, casPaths.proxy, { pgt, targetService: backEnd })).body);
    const proxyTicket = proxied.text("proxyTicket") ?? "";
    expect(proxyTicket).toMatch(/^PT-[0-9a-f]{64}$/);
    // A proxy ticket is for /proxyValidate: /serviceValidate refuses it (and it stays usable where it belongs).
    expect(
      casXml(
        (await validateAt(t.app, casPaths.serviceValidate, { service: backEnd, ticket: proxyTicket })).body,
      ).failureCode(),
    ).toBe("INVALID_TICKET");
    const atBackEnd = casXml(
      (await validateAt(t.app, casPaths.p3ProxyValidate, { service: backEnd, ticket: proxyTicket })).body,
    );
    expect(atBackEnd.text("user")).toBe(student.username);
    expect(atBackEnd.texts("proxy")).toEqual([pgtUrl]);
    expect(atBackEnd.text("uid")).toBe(student.username);

    // An unregistered back end gets no proxy ticket.
    const nowhere = casXml(
      (await validateAt(t.app, casPaths.proxy, { pgt, targetService: "https://evil.example/" })).body,
    );
    expect(nowhere.failureCode()).toBe("UNAUTHORIZED_SERVICE");
  });

  it("a chain of two proxies: the back end proxies on, and the third service hears both callbacks, the most recent first", async () => {
    const service = `${origin}/chain-app/`;
    const backEnd = `${origin}/chain-backend/`;
    const third = `${origin}/chain-third/`;
    const { student } = await studentWithService(t.app, service, { proxy: true });
    await casApplication(t.app, backEnd, { people: [student.person.id], proxy: true });
    await casApplication(t.app, third, { people: [student.person.id] });
    const firstCallback = `${origin}/pgt?hop=1`;
    const secondCallback = `${origin}/pgt?hop=2`;
    const grantingTicketOf = (answer: ReturnType<typeof casXml>) =>
      grantingTickets.get(answer.text("proxyGrantingTicket") ?? "") ?? "";
    const proxyTicketFor = async (pgt: string, targetService: string) =>
      casXml((await validateAt(t.app, casPaths.proxy, { pgt, targetService })).body).text("proxyTicket") ?? "";

    const ticket = await serviceTicket(t.app, student.cookie, service);
    const atApp = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, pgtUrl: firstCallback })).body,
    );
    const firstPgt = grantingTicketOf(atApp);
    expect(firstPgt).toMatch(/^PGT-/);
    // The back end validates its proxy ticket with a callback of its own, and so may proxy on.
    const atBackEnd = casXml(
      (
        await validateAt(t.app, casPaths.p3ProxyValidate, {
          service: backEnd,
          ticket: await proxyTicketFor(firstPgt, backEnd),
          pgtUrl: secondCallback,
        })
      ).body,
    );
    expect(atBackEnd.texts("proxy")).toEqual([firstCallback]);
    const secondPgt = grantingTicketOf(atBackEnd);
    expect(secondPgt).toMatch(/^PGT-/);
    expect(secondPgt).not.toBe(firstPgt);

    // CAS Protocol 3.0 §2.6.2: cas:proxies lists the proxies in reverse order of traversal, most recent first.
    const xml = casXml(
      (
        await validateAt(t.app, casPaths.p3ProxyValidate, {
          service: third,
          ticket: await proxyTicketFor(secondPgt, third),
        })
      ).body,
    );
    expect(xml.text("user")).toBe(student.username);
    expect(xml.texts("proxy")).toEqual([secondCallback, firstCallback]);
    const json = await validateAt(t.app, casPaths.p3ProxyValidate, {
      service: third,
      ticket: await proxyTicketFor(secondPgt, third),
      format: "JSON",
    });
    expect(json.json().serviceResponse.authenticationSuccess).toMatchObject({
      user: student.username,
      proxies: [secondCallback, firstCallback],
    });
    // The third service may not proxy: its own callback gets no proxy-granting ticket.
    const further = await validateAt(t.app, casPaths.p3ProxyValidate, {
      service: third,
      ticket: await proxyTicketFor(secondPgt, third),
      pgtUrl: `${origin}/pgt?hop=3`,
    });
    expect(casXml(further.body).failureCode()).toBe("UNAUTHORIZED_SERVICE_PROXY");
  });

  it("a callback that does not answer 200 gets no proxy-granting ticket; the validation itself succeeds", async () => {
    const service = `${origin}/refusing/`;
    const { student } = await studentWithService(t.app, service, { proxy: true });
    callbackStatus = 404;
    try {
      const ticket = await serviceTicket(t.app, student.cookie, service);
      const answer = casXml(
        (await validateAt(t.app, casPaths.serviceValidate, { service, ticket, pgtUrl: `${origin}/pgt` })).body,
      );
      expect(answer.text("user")).toBe(student.username);
      expect(answer.text("proxyGrantingTicket")).toBeUndefined();
    } finally {
      callbackStatus = 200;
    }
  });

  it("signing out of KPI ID posts a LogoutRequest naming the validated ticket to the service that asked, and ends its proxying", async () => {
    const service = `${origin}/slo/`;
    const { student } = await studentWithService(t.app, service, { singleLogout: true, proxy: true });
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const answer = casXml(
      (await validateAt(t.app, casPaths.serviceValidate, { service, ticket, pgtUrl: `${origin}/pgt` })).body,
    );
    const pgt = grantingTickets.get(answer.text("proxyGrantingTicket") ?? "") ?? "";
    logoutRequests.length = 0;

    const signedOut = await postJson(t.app, "/api/auth/logout", {}, { headers: { cookie: student.cookie } });
    expect(signedOut.statusCode).toBe(200);
    expect(logoutRequests).toHaveLength(1);
    expect(logoutRequests[0]).toContain("<samlp:LogoutRequest");
    expect(logoutRequests[0]).toContain(`<samlp:SessionIndex>${ticket}</samlp:SessionIndex>`);
    const afterwards = casXml((await validateAt(t.app, casPaths.proxy, { pgt, targetService: service })).body);
    expect(afterwards.failureCode()).toBe("INVALID_TICKET");
    // Nothing is left to tell: a second sign-out (another session) posts nothing more.
    expect(await t.app.db.selectFrom("cas_sign_ins").select("id").execute()).toEqual([]);
  });
  it.each([
    ["ending the person's sessions", "sessions/end", {}],
    ["disabling the person", "status", { status: "disabled" }],
  ])("an operator %s posts the LogoutRequest to the service the person signed in to", async (_, action, body) => {
    const service = `${origin}/slo-operator-${action.replace("/", "-")}/`;
    const { student } = await studentWithService(t.app, service, { singleLogout: true });
    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body).text("user")).toBe(
      student.username,
    );
    logoutRequests.length = 0;

    const operator = await addOperator(t.app, ["admin"]);
    const as = { headers: { cookie: operator.cookie, origin: TEST_ORIGIN } };
    const acted = await postJson(t.app, `/api/admin/people/${student.person.id}/${action}`, body, as);
    expect(acted.statusCode).toBe(200);
    expect(logoutRequests).toHaveLength(1);
    expect(logoutRequests[0]).toContain(`<samlp:SessionIndex>${ticket}</samlp:SessionIndex>`);
  });
  it("a sign-in again in the same browser replaces the session; signing out still reaches the earlier ticket", async () => {
    const service = `${origin}/slo-again/`;
    const { student } = await studentWithService(t.app, service, { singleLogout: true });
    const first = await serviceTicket(t.app, student.cookie, service);
    await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: first });
    // As with `renew`: the sign-in screen again in this browser, whose cookie names the session being replaced.
    const again = await signIn(t.app, student.username, "developer passphrase 1", { cookie: student.cookie });
    expect((await t.app.inject({ url: "/api/user", headers: { cookie: student.cookie } })).statusCode).toBe(401);
    const second = await serviceTicket(t.app, again, service);
    await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: second });
    logoutRequests.length = 0;

    expect((await postJson(t.app, "/api/auth/logout", {}, { headers: { cookie: again } })).statusCode).toBe(200);
    const named = logoutRequests.map((request) => /<samlp:SessionIndex>([^<]+)</.exec(request)?.[1]);
    expect(named.sort()).toEqual([first, second].sort());
  });
});
