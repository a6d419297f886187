import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consentOf, forgetConsents, recordConsent } from "../../../src/model/access/consents.ts";
import { forgetConsentsToApplication } from "../../../src/model/admission/applications.ts";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const now = new Date("2026-11-29T08:00:00Z");

/** An SP's metadata as model/saml stores it; the consents only need its entity id and the application it serves. */
function serviceProvider(entityId: string) {
  return {
    entityId,
    displayName: entityId,
    entityCategories: [],
    metadataXml: `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}"/>`,
  };
}

// One person's consents to two applications, each with a SAML SP of its own: forgetting one application's must
// leave the other's, and an application's SAML consents can be told apart only through the SPs linked to it.
describe.each(databaseKinds)("forgetting consents on %s", (kind) => {
  let t: TestApp;
  let personId: string;
  let library: string;
  let journals: string;
  const librarySp = { protocol: "saml", spEntityId: "https://library.kpi.ua/shibboleth" } as const;
  const journalsSp = { protocol: "saml", spEntityId: "https://journals.example.org/sp" } as const;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    personId = (await addPerson(t.app, { username: "consenting.reader", fullName: "Ірина Читач" }, "reader-pass-1")).id;
    library = (await addApplication(t.app)).application.id;
    journals = (await addApplication(t.app)).application.id;
    for (const [sp, applicationId] of [
      [librarySp, library],
      [journalsSp, journals],
    ] as const) {
      await upsertServiceProvider(t.app.db, serviceProvider(sp.spEntityId), "manual", { applicationId }, now);
      await recordConsent(t.app.db, personId, sp, ["mail"], { now });
      await recordConsent(t.app.db, personId, { protocol: "ticket", applicationId }, ["name"], { now });
    }
  });
  afterAll(() => t.close());

  it("refuses to forget an application's SAML consents without its SPs, and forgets none of the person's", async () => {
    await expect(forgetConsents(t.app.db, { applicationId: library }, ["saml"])).rejects.toThrow(/SPs linked/);
    await expect(forgetConsents(t.app.db, { userId: personId, applicationId: library })).rejects.toThrow(/SPs linked/);
    expect(await consentOf(t.app.db, personId, librarySp, now)).toEqual(["mail"]);
    expect(await consentOf(t.app.db, personId, journalsSp, now)).toEqual(["mail"]);
    expect(await consentOf(t.app.db, personId, { protocol: "ticket", applicationId: library }, now)).toEqual(["name"]);
  });

  it("forgets one application's consents on every protocol, over SAML those of its own SP alone", async () => {
    expect(await forgetConsentsToApplication(t.app.db, personId, library)).toBe(2);
    expect(await consentOf(t.app.db, personId, librarySp, now)).toBeUndefined();
    expect(await consentOf(t.app.db, personId, { protocol: "ticket", applicationId: library }, now)).toBeUndefined();
    expect(await consentOf(t.app.db, personId, journalsSp, now)).toEqual(["mail"]);
    expect(await consentOf(t.app.db, personId, { protocol: "ticket", applicationId: journals }, now)).toEqual(["name"]);
  });
});
