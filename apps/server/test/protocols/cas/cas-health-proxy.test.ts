import { createServer, type Server } from "node:https";
import tls from "node:tls";
import { casPaths, type IntegrationHealth } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustExtraCas } from "../../../src/platform/http/outbound-trust.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import {
  casApplication,
  casXml,
  ownerHealth,
  serviceTicket,
  signInsToday,
  studentWithService,
  validateAt,
} from "../../support/cas.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { makeKeyPair } from "../saml/keys.ts";

/**
 * Issue 59, the proxy side of a CAS application's integration health: a proxy callback KPI ID could not use and a
 * pgtUrl from a service not registered to proxy each have their own reason (their fix is not the ticket's), and a
 * proxy ticket is not a sign-in: the person signed in once, at /cas/login. A CAS service on loopback https, its
 * certificate from a test CA that TLS_EXTRA_CA_FILE trusts, as in cas-proxy-logout.test.ts.
 */
describe.each(aboveModelDatabases)("CAS proxying in the integration health (%s)", (kind) => {
  const original = tls.getCACertificates("default");
  let t: TestApp;
  let server: Server;
  let port = 0;
  let origin = "";
  const grantingTickets = new Map<string, string>();

  beforeAll(async () => {
    const host = makeKeyPair("localhost");
    trustExtraCas(host.certFile);
    server = createServer({ key: host.privateKeyPem, cert: host.certificatePem }, (request, response) => {
      const url = new URL(request.url ?? "/", "https://localhost");
      // /pgt takes the ticket; /refusing answers as a callback that is not there.
      const iou = url.searchParams.get("pgtIou");
      const id = url.searchParams.get("pgtId");
      if (url.pathname === "/pgt" && iou && id) grantingTickets.set(iou, id);
      response.statusCode = url.pathname === "/pgt" ? 200 : 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
    origin = `https://localhost:${port}`;
    t = await createTestApp(kind, {}, { protocols: ["cas"] });
  });
  afterAll(async () => {
    tls.setDefaultCACertificates(original);
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const reasons = (health: IntegrationHealth) => health.failures.map(({ protocol, reason }) => `${protocol}:${reason}`);

  it("an http pgtUrl and a callback answering 404 are proxy_callback_refused; the sign-ins still count once each", async () => {
    const service = `${origin}/refused/`;
    const { student, application } = await studentWithService(t.app, service, { proxy: true });
    const health = await ownerHealth(t.app, application.id);

    const http = await validateAt(t.app, casPaths.p3ServiceValidate, {
      service,
      ticket: await serviceTicket(t.app, student.cookie, service),
      pgtUrl: `http://localhost:${port}/pgt`,
    });
    expect(casXml(http.body).failureCode()).toBe("INVALID_PROXY_CALLBACK");
    expect(reasons(await health())).toEqual(["cas:proxy_callback_refused"]);

    // CAS Protocol 3.0 §2.5.4: the validation succeeds without a proxy-granting ticket; only the health says why.
    const notFound = casXml(
      (
        await validateAt(t.app, casPaths.p3ServiceValidate, {
          service,
          ticket: await serviceTicket(t.app, student.cookie, service),
          pgtUrl: `${origin}/refusing`,
        })
      ).body,
    );
    expect(notFound.text("user")).toBe(student.username);
    expect(notFound.text("proxyGrantingTicket")).toBeUndefined();
    const after = await health();
    expect(reasons(after)).toEqual(["cas:proxy_callback_refused", "cas:proxy_callback_refused"]);
    expect(signInsToday(after)).toBe(2);
  });

  it("a pgtUrl from a service not registered to proxy is proxy_not_allowed", async () => {
    const service = `${origin}/no-proxy/`;
    const { student, application } = await studentWithService(t.app, service);
    const health = await ownerHealth(t.app, application.id);
    const answer = await validateAt(t.app, casPaths.serviceValidate, {
      service,
      ticket: await serviceTicket(t.app, student.cookie, service),
      pgtUrl: `${origin}/pgt`,
    });
    expect(casXml(answer.body).failureCode()).toBe("UNAUTHORIZED_SERVICE_PROXY");
    expect(reasons(await health())).toEqual(["cas:proxy_not_allowed"]);
  });

  it("proxy tickets issued and validated are no sign-ins, at the back end or at the service that proxies", async () => {
    const service = `${origin}/front/`;
    const backEnd = `${origin}/back/`;
    const { student, application } = await studentWithService(t.app, service, { proxy: true });
    const back = await casApplication(t.app, backEnd, { people: [student.person.id] });
    const frontHealth = await ownerHealth(t.app, application.id);
    const backHealth = await ownerHealth(t.app, back.application.id);

    const ticket = await serviceTicket(t.app, student.cookie, service);
    const validated = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, pgtUrl: `${origin}/pgt` })).body,
    );
    const pgt = grantingTickets.get(validated.text("proxyGrantingTicket") ?? "") ?? "";
    expect(pgt).toMatch(/^PGT-/);
    expect(signInsToday(await frontHealth())).toBe(1);

    // The front end reaches the back end twice for the person; the back end validates both proxy tickets.
    for (const round of [1, 2]) {
      const issued = casXml((await validateAt(t.app, casPaths.proxy, { pgt, targetService: backEnd })).body);
      const proxyTicket = issued.text("proxyTicket") ?? "";
      expect(proxyTicket, `round ${round}`).toMatch(/^PT-/);
      const atBackEnd = casXml(
        (await validateAt(t.app, casPaths.p3ProxyValidate, { service: backEnd, ticket: proxyTicket })).body,
      );
      expect(atBackEnd.text("user")).toBe(student.username);
    }
    const front = await frontHealth();
    const backEndHealth = await backHealth();
    expect(signInsToday(front)).toBe(1);
    expect(signInsToday(backEndHealth)).toBe(0);
    expect([...front.failures, ...backEndHealth.failures]).toEqual([]);
  });

  it("a proxy ticket sent to /serviceValidate (CAS 2.0 or 3.0) is proxy_ticket_at_service_validate at the back end", async () => {
    const service = `${origin}/front-pt/`;
    const backEnd = `${origin}/back-pt/`;
    const { student } = await studentWithService(t.app, service, { proxy: true });
    const back = await casApplication(t.app, backEnd, { people: [student.person.id] });
    const backHealth = await ownerHealth(t.app, back.application.id);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const validated = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, pgtUrl: `${origin}/pgt` })).body,
    );
    const pgt = grantingTickets.get(validated.text("proxyGrantingTicket") ?? "") ?? "";
    const proxyTicket = async () =>
      casXml((await validateAt(t.app, casPaths.proxy, { pgt, targetService: backEnd })).body).text("proxyTicket") ?? "";

    // The back end's CAS client is pointed at the service-ticket endpoints, which CAS 3.0 keeps for ST- only.
    for (const path of [casPaths.p3ServiceValidate, casPaths.serviceValidate]) {
      const refused = await validateAt(t.app, path, { service: backEnd, ticket: await proxyTicket() });
      expect(casXml(refused.body).failureCode(), path).toBe("INVALID_TICKET");
    }
    expect(reasons(await backHealth())).toEqual([
      "cas:proxy_ticket_at_service_validate",
      "cas:proxy_ticket_at_service_validate",
    ]);
  });
});
