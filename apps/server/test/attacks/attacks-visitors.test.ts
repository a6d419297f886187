import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshFederation, saveFederation } from "../../src/protocols/saml/federation.ts";
import { signedAggregate } from "../protocols/saml/aggregate.ts";
import { makeKeyPair } from "../protocols/saml/keys.ts";
import {
  authnRequestIdOf,
  type ForgedAnswer,
  forgedResponse,
  institutionMetadata,
} from "../protocols/saml/visitors/forged-answers.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import { aboveModelDatabases } from "../support/databases.ts";

const acs = `${TEST_PUBLIC_URL}/saml/sp/acs`;
const institution = "https://idp.partner.example.org/idp";
const refusedInstitution = "https://idp.refused.example.net/idp";

/**
 * Hostile answers to KPI ID as a service provider (issue 78): each arrives for a request KPI ID really sent, from an
 * institution whose key the test holds, so the only thing wrong with it is the thing named.
 */
describe.each(aboveModelDatabases)("forged answers from home institutions (%s)", (kind) => {
  let t: TestApp;
  const institutionKey = makeKeyPair("partner-idp");
  const otherKey = makeKeyPair("not-the-partner");

  beforeAll(async () => {
    t = await createTestApp(kind, { SAML_VISITOR_FEDERATIONS: "research", SAML_VISITOR_INSTITUTIONS: institution });
    const federationKey = makeKeyPair("research-federation");
    const file = join(federationKey.dir, "aggregate.xml");
    const entities = [
      institutionMetadata(institution, "partner.example.org", institutionKey, "Partner University"),
      institutionMetadata(refusedInstitution, "refused.example.net", institutionKey, "Refused College"),
    ];
    writeFileSync(file, signedAggregate(entities, new Date(Date.now() + 86_400_000), federationKey));
    await saveFederation(t.app.db, {
      name: "research",
      source: file,
      certificate: federationKey.certificate,
      entityCategories: [],
    });
    await refreshFederation(t.app.db, "research", { now: t.app.clock(), readFile: (path) => readFile(path, "utf8") });
  });
  afterAll(() => t?.close());

  /** A sign-in KPI ID really started, and a made-to-order answer to it; answers where the browser is sent. */
  async function answer(change: Partial<ForgedAnswer>) {
    const start = await postJson(t.app, "/api/institution/start", { entityId: institution });
    expect(start.statusCode, start.body).toBe(200);
    const forged = forgedResponse({
      issuer: institution,
      inResponseTo: authnRequestIdOf(start.json().redirect),
      audience: `${TEST_PUBLIC_URL}/saml/sp`,
      destination: acs,
      subjectId: "someone@partner.example.org",
      notOnOrAfter: new Date(Date.now() + 5 * 60_000),
      key: institutionKey,
      ...change,
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/saml/sp/acs",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: new URLSearchParams({ SAMLResponse: forged }).toString(),
    });
    return String(response.headers.location);
  }

  it("takes a well-made answer (the control: each refusal below differs from it in one thing)", async () => {
    expect(await answer({})).toMatch(/^\/api\/institution\/finish\?request=/);
  });

  it.each([
    ["an unsigned assertion", { key: undefined }],
    ["an assertion signed by another key", { key: otherKey }],
    ["an expired assertion", { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }],
    ["an assertion for another audience", { audience: "https://sp.elsewhere.example/shibboleth" }],
    ["an answer sent to another address", { destination: "https://sp.elsewhere.example/acs" }],
    ["an identifier scoped to another institution", { subjectId: "someone@kpi.ua" }],
    ["an answer from another institution than the one asked", { issuer: refusedInstitution }],
    ["an answer to a request KPI ID never sent", { inResponseTo: "_never-sent" }],
  ])("refuses %s", async (_what, change) => {
    expect(await answer(change)).toMatch(/^\/institution\?error=institution\.(answer_refused|request_expired)$/);
  });

  it("refuses to start at an institution the operators did not allow, and at one no federation lists", async () => {
    for (const entityId of [refusedInstitution, "https://idp.nowhere.example/idp"]) {
      const start = await postJson(t.app, "/api/institution/start", { entityId });
      expect(start.statusCode).toBe(403);
      expect(start.json().code).toBe("institution.not_allowed");
    }
    const listed = await t.app.inject({ url: "/api/institutions?q=" });
    expect(listed.json().institutions.map((each: { entityId: string }) => each.entityId)).toEqual([institution]);
  });

  it("gives nothing to a browser that did not start the sign-in, and nothing twice", async () => {
    const finish = await answer({ subjectId: "twice@partner.example.org" });
    const stranger = await t.app.inject({ url: finish, headers: { accept: "text/html" } });
    expect(stranger.headers.location).toBe("/uk/institution?error=institution.request_expired");
    const welcome = await t.app.inject({
      url: `/api/institution/welcome?request=${new URL(finish, TEST_PUBLIC_URL).searchParams.get("request")}`,
    });
    expect(welcome.statusCode).toBe(400);
    expect(welcome.json().code).toBe("institution.request_expired");
  });
});
