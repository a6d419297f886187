import { casPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccess } from "../../../src/model/admission/applications.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import {
  casLogin,
  casXml,
  ownerHealth,
  serviceTicket,
  signInsToday,
  studentWithService,
  validateAt,
} from "../../support/cas.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addStudent } from "../../support/developers.ts";

/**
 * Issue 59: a CAS application's sign-ins and the mistakes its CAS client makes show in its integration health,
 * read as the developers' page reads it (GET /api/developers/applications/{id}/health, as an owner), each under a
 * reason whose fix text fits it. The real clock: the sign-ins are counted from the audit log, whose times are the
 * database's. Proxy callbacks and proxy tickets: cas-health-proxy.test.ts.
 */
describe.each(aboveModelDatabases)("CAS in the integration health (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["cas"] });
  });
  afterAll(() => t.close());

  it("counts a CAS sign-in on today's bar; a reused ticket is ticket_invalid, another service address service_mismatch", async () => {
    const service = "https://health.example.edu/cas";
    const { student, application } = await studentWithService(t.app, service);
    const health = await ownerHealth(t.app, application.id);
    const before = await health();
    expect(before.signInsPerDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), signIns: 0 });
    expect(before.failures).toEqual([]);

    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body).text("user")).toBe(
      student.username,
    );
    const signedIn = await health();
    // The login is one sign-in; its validation is the same sign-in, not a second one.
    expect(signInsToday(signedIn)).toBe(1);
    expect(signedIn.failures).toEqual([]);

    // The CAS client validates the same ticket again (a reload of its callback), then one for another address.
    const reused = await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket });
    expect(casXml(reused.body).failureCode()).toBe("INVALID_TICKET");
    const another = await serviceTicket(t.app, student.cookie, service);
    const elsewhere = await validateAt(t.app, casPaths.serviceValidate, {
      service: `${service}?page=2`,
      ticket: another,
    });
    expect(casXml(elsewhere.body).failureCode()).toBe("INVALID_SERVICE");

    const failed = await health();
    // Newest first: the address mismatch has its own fix (validate with the address sent to /cas/login).
    expect(failed.failures.map(({ protocol, reason, address }) => ({ protocol, reason, address }))).toEqual([
      { protocol: "cas", reason: "service_mismatch", address: "" },
      { protocol: "cas", reason: "ticket_invalid", address: "" },
    ]);
    expect(signInsToday(failed)).toBe(2);
  });

  it("a renew=true validation of a ticket from an ordinary sign-in is renew_not_met, not a ticket problem", async () => {
    const service = "https://renew-health.example.edu/";
    const { student, application } = await studentWithService(t.app, service);
    const health = await ownerHealth(t.app, application.id);
    // The person was already signed in: /cas/login without renew hands a ticket from that sign-in.
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const refused = await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, renew: "true" });
    expect(casXml(refused.body).failureCode()).toBe("INVALID_TICKET_SPEC");
    expect((await health()).failures.map(({ protocol, reason }) => ({ protocol, reason }))).toEqual([
      { protocol: "cas", reason: "renew_not_met" },
    ]);
  });

  it("a person without access is a CAS no_access failure, and no sign-in", async () => {
    const service = "https://closed-health.example.edu/";
    const { application } = await studentWithService(t.app, service);
    const health = await ownerHealth(t.app, application.id);
    const outsider = await addStudent(t.app, "outsider");
    expect((await casLogin(t.app, outsider.cookie, { service })).location).toBe(`/uk/apps?appId=${application.id}`);
    const answer = await health();
    expect(answer.failures.map(({ protocol, reason }) => ({ protocol, reason }))).toEqual([
      { protocol: "cas", reason: "no_access" },
    ]);
    expect(signInsToday(answer)).toBe(0);
  });

  it("a person whose access ended between the login and the validation is no_access, not a ticket problem", async () => {
    const service = "https://revoked-health.example.edu/";
    const { student, application } = await studentWithService(t.app, service);
    const health = await ownerHealth(t.app, application.id);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(await revokeAccess(t.app.db, student.person.id, application.id)).toBe("revoked");
    const refused = await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket });
    expect(casXml(refused.body).failureCode()).toBe("INVALID_TICKET");
    expect((await health()).failures.map(({ reason }) => reason)).toEqual(["no_access"]);
  });
});
