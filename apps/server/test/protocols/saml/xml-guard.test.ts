import { describe, expect, it } from "vitest";
import { validateSamlSchema, XmlRefusedError } from "../../../src/protocols/saml/xml-guard.ts";

const authnRequest = (extra = "") =>
  `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1" Version="2.0" IssueInstant="2026-11-29T04:00:00Z" AssertionConsumerServiceURL="https://sp.example.org/acs"${extra}><saml:Issuer>https://sp.example.org</saml:Issuer></samlp:AuthnRequest>`;

// The schemas are parsed once per process (xml-guard.ts); each document is checked against them alone.
describe("the SAML schema check", () => {
  it("accepts an AuthnRequest the schema allows, again and again with the same validator", async () => {
    for (let turn = 0; turn < 3; turn++) await expect(validateSamlSchema(authnRequest())).resolves.toBeUndefined();
  });

  it("refuses an attribute the schema does not allow, naming it", async () => {
    const refused = validateSamlSchema(authnRequest(' Bogus="x"'));
    await expect(refused).rejects.toBeInstanceOf(XmlRefusedError);
    await expect(refused).rejects.toThrow(/^XML refused: schema: .*'Bogus'/);
  });

  it("refuses a document that is not well-formed as a refusal, not as an unexplained error", async () => {
    const refused = validateSamlSchema("<samlp:AuthnRequest");
    await expect(refused).rejects.toBeInstanceOf(XmlRefusedError);
    await expect(refused).rejects.toThrow(/^XML refused: schema: /);
  });
});
