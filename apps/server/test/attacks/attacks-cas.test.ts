import { casPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccess } from "../../src/model/admission/applications.ts";
import { disableUser } from "../../src/model/sessions/disable.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { manualClock, signIn } from "../support/campus.ts";
import {
  casApplication,
  casLogin,
  casXml,
  serviceTicket,
  studentWithService,
  ticketIn,
  validateAt,
} from "../support/cas.ts";
import { aboveModelDatabases, databaseKinds } from "../support/databases.ts";
import { addStudent } from "../support/developers.ts";
import { addAuthenticator } from "../support/mfa.ts";
import { answerTicketConsent, consentRequestOf, liveCommunityApplication } from "../support/ticket-consent.ts";

const page = { accept: "text/html" };
const failureOf = async (t: TestApp, path: string, query: Record<string, string>) =>
  casXml((await validateAt(t.app, path, query)).body).failureCode();

/**
 * The race is the database's to decide (consume-once under two validations at once), so it runs on both; the rest
 * drives CAS over the same model functions and runs once (docs/testing.md).
 */
describe.each(databaseKinds)("a CAS ticket raced (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["cas"] });
  });
  afterAll(() => t.close());

  it("a ticket used twice: the second validation fails, and of two at once only one succeeds", async () => {
    const service = "https://twice.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(casXml((await validateAt(t.app, casPaths.serviceValidate, { service, ticket })).body).text("user")).toBe(
      student.username,
    );
    expect(await failureOf(t, casPaths.serviceValidate, { service, ticket })).toBe("INVALID_TICKET");
    expect(await failureOf(t, casPaths.p3ProxyValidate, { service, ticket })).toBe("INVALID_TICKET");

    const raced = await serviceTicket(t.app, student.cookie, service);
    const answers = await Promise.all(
      [1, 2, 3].map(() => validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: raced })),
    );
    expect(answers.filter((answer) => casXml(answer.body).text("user") === student.username)).toHaveLength(1);
  });
});

/** Issue 59's "Must show" for CAS: what a CAS client, a thief of a ticket or a hostile page can and cannot do. */
describe.each(aboveModelDatabases)("attacks on CAS (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
  });
  afterAll(() => t.close());

  it("a ticket validated for another service: INVALID_SERVICE, and the ticket is spent for its own service too", async () => {
    const service = "https://mine.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const other = "https://theirs.example.edu/";
    await casApplication(t.app, other, { people: [student.person.id] });
    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(await failureOf(t, casPaths.serviceValidate, { service: other, ticket })).toBe("INVALID_SERVICE");
    expect(await failureOf(t, casPaths.serviceValidate, { service, ticket })).toBe("INVALID_TICKET");
    // The same address with another query is another service.
    const again = await serviceTicket(t.app, student.cookie, service);
    expect(await failureOf(t, casPaths.serviceValidate, { service: `${service}?x=1`, ticket: again })).toBe(
      "INVALID_SERVICE",
    );
  });

  it("an unregistered service URL gets no ticket, whatever it looks like", async () => {
    const service = "https://registered.example.edu/app/";
    const { student } = await studentWithService(t.app, service, { match: "prefix" });
    const lookalikes = [
      "https://evil.example/",
      "https://registered.example.edu@evil.example/app/",
      "https://registered.example.edu.evil.example/app/",
      "https://registered.example.edu/app",
      "https://registered.example.edu/app/..%2f..%2fadmin/../../other",
      "https://registered.example.edu/application/",
      "http://registered.example.edu/app/",
      "javascript:alert(1)//registered.example.edu/app/",
      "https://registered.example.edu/app/#https://evil.example/",
    ];
    for (const lookalike of lookalikes) {
      const refused = await t.app.inject({
        url: `${casPaths.login}?${new URLSearchParams({ service: lookalike })}`,
        headers: { cookie: student.cookie, ...page },
      });
      expect(refused.statusCode, lookalike).toBe(303);
      expect(refused.headers.location, lookalike).toBe("/uk/consent?samlError=cas.service_not_registered");
      const gateway = await t.app.inject({
        url: `${casPaths.login}?${new URLSearchParams({ service: lookalike, gateway: "true" })}`,
        headers: { cookie: student.cookie, ...page },
      });
      expect(gateway.headers.location, lookalike).toBe("/uk/consent?samlError=cas.service_not_registered");
    }
    // A script (no Accept: text/html) gets the JSON error.
    const json = await t.app.inject({
      url: `${casPaths.login}?service=${encodeURIComponent("https://evil.example/")}`,
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe("cas.service_not_registered");
    expect(
      await t.app.db.selectFrom("cas_tickets").select("service").where("service", "like", "%evil%").execute(),
    ).toEqual([]);
  });

  it("a proxy callback over http (or on another host, or for a service not allowed to proxy) gets no proxy-granting ticket", async () => {
    const service = "https://proxying.example.edu/";
    const { student } = await studentWithService(t.app, service, { proxy: true });
    const withCallback = async (pgtUrl: string) =>
      failureOf(t, casPaths.serviceValidate, {
        service,
        ticket: await serviceTicket(t.app, student.cookie, service),
        pgtUrl,
      });
    expect(await withCallback("http://proxying.example.edu/pgt")).toBe("INVALID_PROXY_CALLBACK");
    expect(await withCallback("https://evil.example/pgt")).toBe("INVALID_PROXY_CALLBACK");
    expect(await withCallback("https://user:pw@proxying.example.edu/pgt")).toBe("INVALID_PROXY_CALLBACK");
    expect(await withCallback("not a url")).toBe("INVALID_PROXY_CALLBACK");
    const plain = "https://plain.example.edu/";
    await casApplication(t.app, plain, { people: [student.person.id] });
    const ticket = await serviceTicket(t.app, student.cookie, plain);
    expect(
      await failureOf(t, casPaths.serviceValidate, { service: plain, ticket, pgtUrl: "https://plain.example.edu/pgt" }),
    ).toBe("UNAUTHORIZED_SERVICE_PROXY");
    expect(await t.app.db.selectFrom("cas_tickets").select("kind").where("kind", "=", "PGT").execute()).toEqual([]);
  });

  it("renew is honoured: the sign-in screen even with a session, and renew=true validation refuses a single sign-on ticket", async () => {
    const service = "https://renew.example.edu/";
    const { student } = await studentWithService(t.app, service);
    clock.advance(60);
    const sso = await serviceTicket(t.app, student.cookie, service);
    expect(await failureOf(t, casPaths.serviceValidate, { service, ticket: sso, renew: "true" })).toBe(
      "INVALID_TICKET_SPEC",
    );

    const asked = await casLogin(t.app, student.cookie, { service, renew: "true" });
    expect(asked.location).toBe("/uk/?reauth=1");
    expect(ticketIn(asked.location)).toBe("");
    // The old session cannot answer the login, however often it comes back to it.
    clock.advance(5);
    const stale = await t.app.inject({ url: String(asked.path[0]), headers: { cookie: student.cookie } });
    expect(stale.headers.location).toBe("/uk/?reauth=1");
    // The person signs in again (a new session); the same login then issues a ticket that renew=true accepts.
    clock.advance(5);
    const fresh = await signIn(t.app, student.username, "developer passphrase 1");
    const continued = await t.app.inject({ url: String(asked.path[0]), headers: { cookie: fresh } });
    const ticket = ticketIn(String(continued.headers.location));
    expect(ticket).toMatch(/^ST-/);
    const answer = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, renew: "true" })).body,
    );
    expect(answer.text("user")).toBe(student.username);
    expect(answer.text("isFromNewLogin")).toBe("true");
    // renew wins over gateway: asked to sign in, not sent back without a ticket.
    expect((await casLogin(t.app, fresh, { service, renew: "true", gateway: "true" })).location).toBe("/uk/?reauth=1");
  });

  it("an application that requires a second factor sends a one-factor session to the step-up, not to the service", async () => {
    const service = "https://strong.example.edu/";
    const { student, application } = await studentWithService(t.app, service, { requireMfa: true });
    // No factor to prove: the account page's set-up; with one, the sign-in screen asking for it (cas-step-up.test.ts).
    expect((await casLogin(t.app, student.cookie, { service })).location).toBe("/uk/account#second-factor");
    await addAuthenticator(t.app, student.person, clock.now());
    const { location } = await casLogin(t.app, student.cookie, { service });
    expect(location).toBe("/uk/?reauth=1&mfa=1");
    const gateway = await casLogin(t.app, student.cookie, { service, gateway: "true" });
    expect(gateway.location).toBe(service);
    expect(
      await t.app.db.selectFrom("cas_tickets").select("kind").where("application_id", "=", application.id).execute(),
    ).toEqual([]);
  });

  it("no access, no ticket; access revoked or the person disabled after the login: the ticket no longer validates", async () => {
    const service = "https://closed.example.edu/";
    const { application } = await casApplication(t.app, service);
    const outsider = await addStudent(t.app, "outsider");
    const refused = await casLogin(t.app, outsider.cookie, { service });
    expect(refused.location).toBe(`/uk/apps?appId=${application.id}`);

    const { student, application: open } = await studentWithService(t.app, "https://revoked.example.edu/");
    const ticket = await serviceTicket(t.app, student.cookie, "https://revoked.example.edu/");
    await revokeAccess(t.app.db, student.person.id, open.id);
    expect(await failureOf(t, casPaths.serviceValidate, { service: "https://revoked.example.edu/", ticket })).toBe(
      "INVALID_TICKET",
    );

    const disabled = await studentWithService(t.app, "https://disabled.example.edu/");
    const theirs = await serviceTicket(t.app, disabled.student.cookie, "https://disabled.example.edu/");
    await disableUser({ db: t.app.db, now: t.app.clock() }, disabled.student.person.id);
    expect(
      await failureOf(t, casPaths.serviceValidate, { service: "https://disabled.example.edu/", ticket: theirs }),
    ).toBe("INVALID_TICKET");
  });

  it("an application that is not first-party learns nothing before the person agrees; after 'allow' the login goes on, without the e-mail the consent did not list", async () => {
    const owner = await addStudent(t.app, "owner");
    const student = await addStudent(t.app, "person");
    const address = `${student.username}@kpi.ua`;
    await t.app.db.updateTable("users").set({ verified_email: address }).where("id", "=", student.person.id).execute();
    const { application } = await liveCommunityApplication(t.app, owner, [student], "community.example.edu");
    const service = "https://community.example.edu/cas";
    // Registered past the console's and the CLI's refusal (cas.mail_not_consented): the release still holds it back.
    await casApplication(t.app, service, { attributes: ["uid", "mail"] }).then(async ({ application: placeholder }) => {
      // The service belongs to the community application, not the placeholder the helper made.
      await t.app.db
        .updateTable("cas_services")
        .set({ application_id: application.id })
        .where("url", "=", service)
        .execute();
      await t.app.db.deleteFrom("applications").where("id", "=", placeholder.id).execute();
    });
    const asked = await casLogin(t.app, student.cookie, { service });
    const id = consentRequestOf(asked.response);
    expect(id).toBeDefined();
    expect(
      await t.app.db.selectFrom("cas_tickets").select("kind").where("application_id", "=", application.id).execute(),
    ).toEqual([]);
    const allowed = await answerTicketConsent(t.app, student.cookie, String(id), true);
    const onward = allowed.outcome().redirectTo;
    expect(onward).toMatch(/^\/cas\/continue\//);
    const done = await t.app.inject({ url: onward, headers: { cookie: student.cookie } });
    const ticket = ticketIn(String(done.headers.location));
    expect(ticket).toMatch(/^ST-/);
    const released = casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body);
    expect(released.text("uid")).toBe(student.username);
    expect(released.text("mail")).toBeUndefined();
  });

  it("a proxy ticket is refused at /serviceValidate, and a made-up proxy-granting ticket gets no proxy ticket", async () => {
    const service = "https://pt.example.edu/";
    await studentWithService(t.app, service);
    expect(await failureOf(t, casPaths.serviceValidate, { service, ticket: "PT-0123" })).toBe("INVALID_TICKET");
    const proxy = await validateAt(t.app, casPaths.proxy, { pgt: "PGT-made-up", targetService: service });
    expect(casXml(proxy.body).failureCode()).toBe("INVALID_TICKET");
    expect(casXml((await validateAt(t.app, casPaths.proxy, { targetService: service })).body).failureCode()).toBe(
      "INVALID_REQUEST",
    );
  });

  it("names and values are escaped in the XML: a display name with markup reads back as written", async () => {
    const service = "https://escape.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const name = `</cas:user><cas:user>admin</cas:user> & "x" ]]> <!--`;
    await t.app.db.updateTable("users").set({ full_name: name }).where("id", "=", student.person.id).execute();
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const answer = casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body);
    expect(answer.texts("user")).toEqual([student.username]);
    expect(answer.text("displayName")).toBe(name);
  });

  it("SAML 1.1 validation: a ticket for another service is refused and spent; a cross-site form cannot post one", async () => {
    const service = "https://saml11.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const other = "https://saml11-other.example.edu/";
    await casApplication(t.app, other, { people: [student.person.id] });
    const soap = (ticket: string) =>
      '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
      '<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol"><samlp:AssertionArtifact>' +
      `${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
    const samlValidate = (target: string, ticket: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: "POST",
        url: `${casPaths.samlValidate}?${new URLSearchParams({ TARGET: target })}`,
        headers: { "content-type": "text/xml", ...headers },
        payload: soap(ticket),
      });
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const stolen = await samlValidate(other, ticket);
    expect(stolen.body).toContain("INVALID_SERVICE");
    expect(stolen.body).not.toContain("NameIdentifier");
    expect((await samlValidate(service, ticket)).body).toContain("INVALID_TICKET");
    // A page elsewhere can only post a form (text/plain, urlencoded): the ticket is never read from it.
    const fresh = await serviceTicket(t.app, student.cookie, service);
    const crossSite = await samlValidate(service, fresh, {
      "content-type": "text/plain",
      origin: "https://evil.example",
      cookie: student.cookie,
    });
    expect(crossSite.statusCode).toBe(200);
    expect(crossSite.body).toContain("saml1p:Requester");
    expect((await samlValidate(service, fresh)).body).toContain(`>${student.username}</saml1:NameIdentifier>`);
  });
});
