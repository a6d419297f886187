import { casPaths, type IntegrationHealth, integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { casLogin, casXml, serviceTicket, studentWithService, validateAt } from "../../support/cas.ts";
import { databaseKinds } from "../../support/databases.ts";
import { addStudent } from "../../support/developers.ts";

/**
 * Issue 59: a CAS application's sign-ins and the mistakes its CAS client makes show in its integration health,
 * read as the developers' page reads it (GET /api/developers/applications/{id}/health, as an owner). The real
 * clock: the sign-ins are counted from the audit log, whose times are the database's.
 */
describe.each(databaseKinds)("CAS in the integration health (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** The application's health as its owner's developers' page loads it. */
  async function healthOf(applicationId: string, ownerCookie: string): Promise<IntegrationHealth> {
    const response = await t.app.inject({
      url: `/api/developers/applications/${applicationId}/health`,
      headers: { cookie: ownerCookie },
    });
    expect(response.statusCode).toBe(200);
    return integrationHealthSchema.parse(response.json());
  }
  const today = (health: IntegrationHealth) => health.signInsPerDay.at(-1);

  it("counts a CAS sign-in on today's bar, and lists a bad validation as a CAS failure with its reason", async () => {
    const service = "https://health.example.edu/cas";
    const { student, application } = await studentWithService(t.app, service);
    const owner = await addStudent(t.app, "owner");
    await t.app.db
      .insertInto("application_owners")
      .values({ application_id: application.id, user_id: owner.person.id })
      .execute();
    const before = await healthOf(application.id, owner.cookie);
    expect(today(before)).toEqual({ day: new Date().toISOString().slice(0, 10), signIns: 0 });
    expect(before.failures).toEqual([]);

    const ticket = await serviceTicket(t.app, student.cookie, service);
    expect(casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body).text("user")).toBe(
      student.username,
    );
    const signedIn = await healthOf(application.id, owner.cookie);
    // The login is one sign-in; its validation is the same sign-in, not a second one.
    expect(today(signedIn)?.signIns).toBe(1);
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

    const failed = await healthOf(application.id, owner.cookie);
    expect(failed.failures.map(({ protocol, reason, address }) => ({ protocol, reason, address }))).toEqual([
      { protocol: "cas", reason: "ticket_invalid", address: "" },
      { protocol: "cas", reason: "ticket_invalid", address: "" },
    ]);
    expect(today(failed)?.signIns).toBe(2);
  });

  it("a person without access is a CAS no_access failure, and no sign-in", async () => {
    const service = "https://closed-health.example.edu/";
    const { application } = await studentWithService(t.app, service);
    const owner = await addStudent(t.app, "owner");
    await t.app.db
      .insertInto("application_owners")
      .values({ application_id: application.id, user_id: owner.person.id })
      .execute();
    const outsider = await addStudent(t.app, "outsider");
    expect((await casLogin(t.app, outsider.cookie, { service })).location).toBe(`/uk/apps?appId=${application.id}`);
    const health = await healthOf(application.id, owner.cookie);
    expect(health.failures.map(({ protocol, reason }) => ({ protocol, reason }))).toEqual([
      { protocol: "cas", reason: "no_access" },
    ]);
    expect(today(health)?.signIns).toBe(0);
  });
});
