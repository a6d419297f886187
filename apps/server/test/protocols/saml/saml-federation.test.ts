import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findServiceProvider, listServiceProviders } from "../../../src/model/saml/service-providers.ts";
import { refreshFederation, saveFederation } from "../../../src/protocols/saml/federation.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { signAggregate, signedAggregate, unsignedAggregate } from "./aggregate.ts";
import { makeKeyPair } from "./keys.ts";
import { type NodeSamlSp, nodeSamlSp } from "./node-saml-sp.ts";

const researchAndScholarship = "http://refeds.org/category/research-and-scholarship";
const day = 24 * 60 * 60;

describe("SPs from a federation's metadata aggregate", () => {
  let test: TestApp;
  const clock = manualClock(new Date());
  const federationKey = makeKeyPair("peano-federation");
  const otherKey = makeKeyPair("not-the-federation");
  let research: NodeSamlSp;
  let plain: NodeSamlSp;
  let cookie: string;
  const path = (name: string, contents: string) => {
    const file = join(federationKey.dir, name);
    writeFileSync(file, contents);
    return file;
  };
  const refresh = (source: string, maxBytes?: number) =>
    saveFederation(test.app.db, {
      name: "peano",
      source,
      certificate: federationKey.certificate,
      entityCategories: [researchAndScholarship],
    }).then(() =>
      refreshFederation(test.app.db, "peano", {
        now: clock.now(),
        readFile: (file) => readFile(file, "utf8"),
        maxBytes,
      }),
    );
  const inAWeek = () => new Date(clock.now().getTime() + 7 * day * 1000);

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"], clock: clock.now });
    const certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    const options = { idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate };
    research = nodeSamlSp({
      ...options,
      baseUrl: "https://research.example.org",
      entityCategories: [researchAndScholarship],
    });
    plain = nodeSamlSp({ ...options, baseUrl: "https://plain.example.org" });
    await addPerson(
      test.app,
      { username: "m.shevchuk", fullName: "Марія Шевчук", email: "m.s@kpi.ua" },
      "pass phrase 42",
    );
    cookie = await signIn(test.app, "m.shevchuk", "pass phrase 42");
  });
  afterAll(() => test?.close());

  it("registers the SPs the category filter takes, with the aggregate's validUntil; SSO works for them until then", async () => {
    const validUntil = inAWeek();
    const loaded = await refresh(
      path("peano.xml", signedAggregate([research.metadata, plain.metadata], validUntil, federationKey)),
    );
    expect(loaded.serviceProviders).toBe(1);
    const rows = await listServiceProviders(test.app.db);
    expect(rows.map((row) => [row.entity_id, row.source])).toEqual([[research.entityId, "federation:peano"]]);
    expect(rows[0]?.valid_until?.toISOString()).toBe(validUntil.toISOString());
    const url = await research.saml.getAuthorizeUrlAsync("", undefined, {});
    const first = await test.app.inject({ url: url.replace(TEST_PUBLIC_URL, ""), headers: { cookie } });
    expect(first.statusCode, first.body).toBe(303);
    // validUntil honoured: past it, the SP is unknown until a fresh aggregate comes.
    clock.advance(8 * day);
    const late = await research.saml.getAuthorizeUrlAsync("", undefined, {});
    const refused = await test.app.inject({ url: late.replace(TEST_PUBLIC_URL, ""), headers: { cookie } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("saml.request_refused");
    expect(await findServiceProvider(test.app.db, research.entityId, clock.now())).toBeUndefined();
  });

  describe("refusals: nothing registered, the reason recorded", () => {
    const refusedWith = async (xml: string, reason: RegExp, maxBytes?: number) => {
      const before = await listServiceProviders(test.app.db);
      await expect(refresh(path("refused.xml", xml), maxBytes)).rejects.toThrow(reason);
      expect(await listServiceProviders(test.app.db)).toEqual(before);
      const row = await test.app.db.selectFrom("saml_federations").selectAll().executeTakeFirstOrThrow();
      expect(row.last_error).toMatch(reason);
    };

    it("an expired aggregate, or one without validUntil", async () => {
      const yesterday = new Date(clock.now().getTime() - day * 1000);
      await refusedWith(signedAggregate([research.metadata], yesterday, federationKey), /expired/);
      const noValidUntil = signAggregate(
        unsignedAggregate([research.metadata], inAWeek()).replace(/ validUntil="[^"]*"/, ""),
        federationKey,
      );
      await refusedWith(noValidUntil, /no validUntil/);
    });

    it("a bad signature: another key, a changed document, none at all", async () => {
      await refusedWith(signedAggregate([research.metadata], inAWeek(), otherKey), /bad signature/);
      const changed = signedAggregate([research.metadata], inAWeek(), federationKey).replace(
        "https://research.example.org/saml/acs",
        "https://evil.example.net/acs",
      );
      await refusedWith(changed, /bad signature/);
      await refusedWith(unsignedAggregate([research.metadata], inAWeek()), /exactly one signature/);
    });

    it("signature wrapping: the signed aggregate moved under an unsigned root, or its signature reused", async () => {
      const signed = signedAggregate([research.metadata], inAWeek(), federationKey);
      const evilSp = research.metadata
        .replaceAll("research.example.org", "evil.example.net")
        .replace(/ ID="[^"]*"/, ' ID="_evil-sp"');
      const signature = signed.match(/<ds:Signature[\s\S]*<\/ds:Signature>/)?.[0] ?? "";
      // XSW1/2: the evil root carries the original signature; the signed root hides in its Extensions.
      const wrapped = unsignedAggregate([evilSp], inAWeek(), "_evil").replace(
        /(<md:EntitiesDescriptor[^>]*>)/,
        `$1${signature}<md:Extensions><x:w xmlns:x="urn:x">${signed}</x:w></md:Extensions>`,
      );
      await refusedWith(wrapped, /signature/);
      // The same ID on the evil root: the signature's reference now names it.
      const sameId = unsignedAggregate([evilSp], inAWeek()).replace(/(<md:EntitiesDescriptor[^>]*>)/, `$1${signature}`);
      await refusedWith(sameId, /bad signature/);
    });

    it("entity expansion, external entities, comments inside values, oversized documents", async () => {
      const body = signedAggregate([research.metadata], inAWeek(), federationKey);
      await refusedWith(
        `<!DOCTYPE r [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">]>${body}`,
        /document type declarations are not allowed/,
      );
      await refusedWith(
        `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${body}`,
        /document type declarations are not allowed/,
      );
      // Exclusive c14n drops comments, so this still verifies: it must be refused before that.
      const commented = body.replace("research-and-scholarship", "research-and-<!---->scholarship");
      expect(commented).not.toBe(body);
      await refusedWith(commented, /a comment inside a value/);
      await refusedWith(body, /document too large/, 4096);
    });
  });

  it("SP metadata by `saml sp add` is refused with comments inside values too", async () => {
    const { parseSpMetadata } = await import("../../../src/protocols/saml/sp-metadata.ts");
    const commented = plain.metadata.replace(
      ">urn:oasis:names:tc:SAML:2.0:nameid-format:persistent<",
      ">urn:oasis:names:tc:SAML:2.0:nameid-format:<!---->persistent<",
    );
    expect(commented).not.toBe(plain.metadata);
    await expect(parseSpMetadata(commented)).rejects.toThrow(/a comment inside a value/);
    const oversized = plain.metadata.replace(
      "</EntityDescriptor>",
      `<!--${"x".repeat(300 * 1024)}--></EntityDescriptor>`,
    );
    await expect(parseSpMetadata(oversized)).rejects.toThrow(/document too large/);
  });
});
