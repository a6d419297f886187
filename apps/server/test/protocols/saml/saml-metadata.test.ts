import { DOMParser, type Element } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignedXml } from "xml-crypto";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { entityAttributeValues, federationProblems } from "./federation-checks.ts";
import { makeKeyPair } from "./keys.ts";
import { xmllintValidate } from "./xmllint.ts";

async function fetchMetadata(testApp: TestApp) {
  const response = await testApp.app.inject({ method: "GET", url: "/saml/metadata" });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toContain("application/samlmetadata+xml");
  return response.body;
}

const rootOf = (xml: string) => new DOMParser().parseFromString(xml, "text/xml").documentElement as Element;

describe("SAML IdP metadata at /saml/metadata", () => {
  let plain: TestApp;
  let federated: TestApp;
  const metadataKey = makeKeyPair("kpi-id-metadata");
  beforeAll(async () => {
    plain = await createTestApp("pglite", {}, { protocols: ["saml"] });
    federated = await createTestApp(
      "pglite",
      {
        PUBLIC_URL: "https://id.kpi.ua",
        SAML_SIRTFI: "true",
        SAML_RESEARCH_AND_SCHOLARSHIP: "true",
        SAML_SECURITY_CONTACT_EMAIL: "cert@kpi.ua",
        SAML_METADATA_KEY_FILE: metadataKey.keyFile,
        SAML_METADATA_CERT_FILE: metadataKey.certFile,
      },
      { protocols: ["saml"] },
    );
  });
  afterAll(async () => {
    await plain?.close();
    await federated?.close();
  });

  it("validates against the SAML metadata schema with mdui, mdattr and mdrpi (Debian's xmllint)", async () => {
    for (const xml of [await fetchMetadata(plain), await fetchMetadata(federated)]) {
      const result = xmllintValidate(xml);
      expect(result.output).toContain("document.xml validates");
      expect(result.valid).toBe(true);
    }
  });

  it("passes the eduGAIN and REFEDS checks that run here, https endpoints included in production form", async () => {
    expect(federationProblems(await fetchMetadata(federated), { requireHttps: true })).toEqual([]);
    expect(federationProblems(await fetchMetadata(plain), { requireHttps: false })).toEqual([]);
  });

  it("advertises the signing and digest algorithms it accepts, SHA-256 and stronger only (algsupport profile)", async () => {
    const algsupport = "urn:oasis:names:tc:SAML:metadata:algsupport";
    for (const xml of [await fetchMetadata(plain), await fetchMetadata(federated)]) {
      const root = rootOf(xml);
      const descriptor = root.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:metadata", "IDPSSODescriptor")[0];
      const algorithms = (name: string) =>
        Array.from(descriptor?.getElementsByTagNameNS(algsupport, name) ?? []).map((e) => e.getAttribute("Algorithm"));
      const signing = algorithms("SigningMethod");
      const digests = algorithms("DigestMethod");
      // First is preferred: a Shibboleth SP signs with the first it supports.
      expect(signing[0]).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
      expect(digests[0]).toBe("http://www.w3.org/2001/04/xmlenc#sha256");
      expect([...signing, ...digests].filter((algorithm) => /sha1$|md5$/i.test(algorithm ?? ""))).toEqual([]);
      // Under the IdP role's md:Extensions, where a Shibboleth SP looks for them.
      const extensions = descriptor?.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:metadata", "Extensions")[0];
      expect(extensions?.getElementsByTagNameNS(algsupport, "SigningMethod").length).toBe(signing.length);
    }
  });

  it("names entityID, both SSO bindings, Single Logout, scope and languages", async () => {
    const xml = await fetchMetadata(federated);
    const root = rootOf(xml);
    expect(root.getAttribute("entityID")).toBe("https://id.kpi.ua/saml/metadata");
    for (const binding of ["HTTP-Redirect", "HTTP-POST"]) {
      expect(xml).toContain(
        `Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="https://id.kpi.ua/saml/sso"`,
      );
      expect(xml).toContain(
        `Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="https://id.kpi.ua/saml/slo"`,
      );
    }
    expect(xml).toContain('<shibmd:Scope regexp="false">kpi.ua</shibmd:Scope>');
    expect(xml).toContain('<mdui:DisplayName xml:lang="uk">КПІ ім. Ігоря Сікорського</mdui:DisplayName>');
    expect(xml).toContain(
      '<mdui:PrivacyStatementURL xml:lang="en">https://id.kpi.ua/en/privacy-policy</mdui:PrivacyStatementURL>',
    );
    expect(xml).toContain("mailto:cert@kpi.ua");
  });

  it("carries Sirtfi and R&S support only when the operator enables them", async () => {
    const on = rootOf(await fetchMetadata(federated));
    expect(entityAttributeValues(on, "urn:oasis:names:tc:SAML:attribute:assurance-certification")).toEqual([
      "https://refeds.org/sirtfi",
    ]);
    expect(entityAttributeValues(on, "http://macedir.org/entity-category-support")).toEqual([
      "http://refeds.org/category/research-and-scholarship",
    ]);
    const off = rootOf(await fetchMetadata(plain));
    expect(entityAttributeValues(off, "urn:oasis:names:tc:SAML:attribute:assurance-certification")).toEqual([]);
    expect(entityAttributeValues(off, "http://macedir.org/entity-category-support")).toEqual([]);
  });

  it("is signed by the metadata key when one is configured, with validUntil, and unsigned otherwise", async () => {
    const xml = await fetchMetadata(federated);
    const root = rootOf(xml);
    expect(Date.parse(root.getAttribute("validUntil") ?? "")).toBeGreaterThan(Date.now());
    const signature = root.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature")[0];
    expect(signature).toBeDefined();
    const verifier = new SignedXml({ publicCert: metadataKey.certificatePem });
    verifier.loadSignature(signature as unknown as Node);
    expect(verifier.checkSignature(xml)).toBe(true);
    expect(verifier.signatureAlgorithm).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    const tampered = xml.replace("kpi.ua</shibmd:Scope>", "evil.example</shibmd:Scope>");
    const tamperedVerifier = new SignedXml({ publicCert: metadataKey.certificatePem });
    tamperedVerifier.loadSignature(signature as unknown as Node);
    // The signed reference no longer matches its digest: xml-crypto answers false, not a throw.
    expect(tamperedVerifier.checkSignature(tampered)).toBe(false);
    expect(await fetchMetadata(plain)).not.toContain("<ds:Signature");
  });
});
