import type { Profile } from "@node-saml/node-saml";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpPolicy, upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { type NodeSamlSp, type NodeSamlSpOptions, nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";
const researchAndScholarship = "http://refeds.org/category/research-and-scholarship";
const oid = {
  eppn: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
  mail: "urn:oid:0.9.2342.19200300.100.1.3",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  givenName: "urn:oid:2.5.4.42",
  sn: "urn:oid:2.5.4.4",
  scopedAffiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
  affiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.1",
  homeOrganization: "urn:oid:1.3.6.1.4.1.25178.1.2.9",
  assurance: "urn:oid:1.3.6.1.4.1.5923.1.1.1.11",
  subjectId: "urn:oasis:names:tc:SAML:attribute:subject-id",
  pairwiseId: "urn:oasis:names:tc:SAML:attribute:pairwise-id",
};

const samlResponseOf = (html: string) =>
  html.match(/name="SAMLResponse" value="([^"]*)"/)?.[1]?.replace(/&#43;/g, "+") ?? "";

describe("SAML attribute release and the consent screen for SPs that are not first-party", () => {
  let test: TestApp;
  let certificate: string;
  let cookie: string;
  let otherCookie: string;
  let bondar: { id: string };
  const sp = (options: Partial<NodeSamlSpOptions>) =>
    nodeSamlSp({ idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate, ...options });
  const register = async (target: NodeSamlSp, policy: SpPolicy) =>
    upsertServiceProvider(test.app.db, await parseSpMetadata(target.metadata), "manual", policy, new Date());

  /** From the SP's redirect to where KPI ID sends the browser (the form page, or a 303 elsewhere). */
  async function startAt(app: FastifyInstance, target: NodeSamlSp, withCookie: string) {
    const url = await target.saml.getAuthorizeUrlAsync("relay-1", undefined, {});
    const first = await app.inject({ url: url.replace(TEST_PUBLIC_URL, ""), headers: { cookie: withCookie } });
    expect(first.statusCode, first.body).toBe(303);
    return app.inject({ url: String(first.headers.location), headers: { cookie: withCookie } });
  }
  const profileOf = async (target: NodeSamlSp, html: string): Promise<Profile> => {
    const { profile } = await target.saml.validatePostResponseAsync({ SAMLResponse: samlResponseOf(html) });
    if (!profile) throw new Error("no profile in the SAML response");
    return profile;
  };

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    bondar = await addPerson(
      test.app,
      { username: "i.bondar", fullName: "Ірина Бондар", email: "i.bondar@kpi.ua", employeeId: "E-7" },
      password,
    );
    await addPerson(test.app, { username: "p.lys", fullName: "Лис Петро", email: "p.lys@kpi.ua" }, password);
    cookie = await signIn(test.app, "i.bondar", password);
    otherCookie = await signIn(test.app, "p.lys", password);
  });
  afterAll(() => test?.close());

  it("asks first, lists what the SP would receive, and releases exactly that once allowed", async () => {
    const journal = sp({ baseUrl: "https://journal.example.org" });
    await register(journal, { releasedAttributes: ["mail", "displayName"] });
    const toConsent = await startAt(test.app, journal, cookie);
    expect(toConsent.statusCode).toBe(303);
    const location = String(toConsent.headers.location);
    expect(location).toMatch(/^\/uk\/consent\?saml=[A-Za-z0-9_-]+$/);
    const id = location.split("saml=")[1] ?? "";
    const details = await test.app.inject({ url: `/api/saml/consent/${id}`, headers: { cookie } });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json()).toEqual({
      application: { title: journal.entityId, description: journal.entityId },
      attributes: ["displayName", "mail"],
      person: { name: "Ірина Бондар" },
    });
    const allowed = await postJson(test.app, `/api/saml/consent/${id}`, { allow: true }, { headers: { cookie } });
    expect(allowed.json()).toEqual({ redirectTo: `/saml/continue/${id}` });
    const page = await test.app.inject({ url: `/saml/continue/${id}`, headers: { cookie } });
    const profile = await profileOf(journal, page.body);
    expect(profile[oid.mail]).toBe("i.bondar@kpi.ua");
    expect(profile[oid.displayName]).toBe("Ірина Бондар");
    expect(profile[oid.eppn]).toBeUndefined();
    // Remembered: the next sign-in to the same SP goes straight back.
    const again = await startAt(test.app, journal, cookie);
    expect(again.statusCode).toBe(200);
    expect((await profileOf(journal, again.body))[oid.mail]).toBe("i.bondar@kpi.ua");
    // The SP's release grows: the person is asked again about the new set.
    await register(journal, { releasedAttributes: ["mail", "displayName", "eduPersonPrincipalName"] });
    expect(String((await startAt(test.app, journal, cookie)).headers.location)).toMatch(/\/uk\/consent\?saml=/);
  });

  it("Deny answers the SP RequestDenied, with no assertion", async () => {
    const survey = sp({ baseUrl: "https://survey.example.org" });
    await register(survey, { releasedAttributes: ["mail"] });
    const id = String((await startAt(test.app, survey, otherCookie)).headers.location).split("saml=")[1] ?? "";
    const denied = await postJson(
      test.app,
      `/api/saml/consent/${id}`,
      { allow: false },
      { headers: { cookie: otherCookie } },
    );
    const page = await test.app.inject({ url: denied.json().redirectTo, headers: { cookie: otherCookie } });
    const xml = Buffer.from(samlResponseOf(page.body), "base64").toString("utf8");
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:status:RequestDenied");
    expect(xml).not.toContain("Assertion");
    // The request was answered: it cannot be answered again.
    const twice = await test.app.inject({ url: `/api/saml/consent/${id}`, headers: { cookie: otherCookie } });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().code).toBe("saml.request_not_found");
  });

  it("needs the person's own session to read or answer a request", async () => {
    const shop = sp({ baseUrl: "https://shop.example.org" });
    await register(shop, { releasedAttributes: ["mail"] });
    const id = String((await startAt(test.app, shop, cookie)).headers.location).split("saml=")[1] ?? "";
    expect((await test.app.inject({ url: `/api/saml/consent/${id}` })).statusCode).toBe(401);
    expect((await postJson(test.app, `/api/saml/consent/${id}`, { allow: true })).statusCode).toBe(401);
    const crossSite = await postJson(
      test.app,
      `/api/saml/consent/${id}`,
      { allow: true },
      { headers: { cookie, origin: "https://evil.example" } },
    );
    expect(crossSite.statusCode).toBe(403);
  });

  it("asks for an SP linked to a community application, whatever the SP's first-party flag says", async () => {
    const linked = sp({ baseUrl: "https://community-linked.example.org" });
    const { application } = await addApplication(test.app, "https://community-linked.example.org/callback");
    await test.app.db.updateTable("applications").set({ community: true }).where("id", "=", application.id).execute();
    await grantAccess(test.app.db, bondar.id, application.id);
    await register(linked, { firstParty: true, applicationId: application.id });
    const asked = await startAt(test.app, linked, cookie);
    expect(asked.statusCode).toBe(303);
    expect(String(asked.headers.location)).toMatch(/^\/uk\/consent\?saml=/);
    expect(asked.body).not.toContain("SAMLResponse");

    // The same SP linked to an operators' first-party application releases at once, as before.
    await test.app.db
      .updateTable("applications")
      .set({ community: false, first_party: true })
      .where("id", "=", application.id)
      .execute();
    const released = await startAt(test.app, linked, cookie);
    expect(released.statusCode).toBe(200);
    expect((await profileOf(linked, released.body)).nameID).toBeTruthy();
  });

  it("releases the R&S bundle to an SP tagged R&S without an allow-list, and every attribute by its definition", async () => {
    const research = sp({ baseUrl: "https://research.example.org", entityCategories: [researchAndScholarship] });
    await register(research, { firstParty: true });
    const profile = await profileOf(research, (await startAt(test.app, research, cookie)).body);
    expect(profile[oid.eppn]).toMatch(/^[0-9a-f-]{36}@kpi\.ua$/);
    expect(profile[oid.mail]).toBe("i.bondar@kpi.ua");
    expect(profile[oid.displayName]).toBe("Ірина Бондар");
    expect(profile[oid.givenName]).toBe("Ірина");
    expect(profile[oid.sn]).toBe("Бондар");
    expect(profile[oid.scopedAffiliation]).toEqual(["member@kpi.ua", "employee@kpi.ua"]);
    expect(profile[oid.assurance]).toBeUndefined();

    const everything = sp({ baseUrl: "https://everything.example.org" });
    await register(everything, {
      firstParty: true,
      releasedAttributes: [
        "subject-id",
        "pairwise-id",
        "eduPersonPrincipalName",
        "eduPersonAffiliation",
        "schacHomeOrganization",
        "eduPersonAssurance",
      ],
    });
    const full = await profileOf(everything, (await startAt(test.app, everything, cookie)).body);
    // eduPersonPrincipalName and subject-id are the person's, the same at every SP and never reassigned.
    expect(full[oid.eppn]).toBe(profile[oid.eppn]);
    expect(full[oid.subjectId]).toBe(profile[oid.eppn]);
    // pairwise-id differs per SP and is the NameID's value, scoped.
    expect(full[oid.pairwiseId]).toBe(`${full.nameID}@kpi.ua`);
    expect(full.nameID).not.toBe(profile.nameID);
    expect(full[oid.affiliation]).toEqual(["member", "employee"]);
    expect(full[oid.homeOrganization]).toBe("kpi.ua");
    expect(full[oid.assurance]).toEqual(
      expect.arrayContaining(["https://refeds.org/assurance/ID/eppn-unique-no-reassign"]),
    );
    const other = await profileOf(everything, (await startAt(test.app, everything, otherCookie)).body);
    expect(other[oid.eppn]).not.toBe(full[oid.eppn]);
  });
});
