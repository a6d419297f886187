import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { type NodeSamlSp, nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";

const unsignedRequest = (issuer: string, id: string, extra = "") =>
  `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${TEST_PUBLIC_URL}/saml/sso"><saml:Issuer>${issuer}</saml:Issuer>${extra}</samlp:AuthnRequest>`;

const redirectUrl = (xml: string) =>
  `/saml/sso?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString("base64"))}`;

/** The XML of node-saml's signed HTTP-POST request (it deflates even there). */
async function signedPostXml(sp: NodeSamlSp): Promise<string> {
  const html = await sp.saml.getAuthorizeFormAsync("");
  const encoded = html.match(/name="SAMLRequest" value="([^"]*)"/)?.[1] ?? "";
  return inflateRawSync(Buffer.from(encoded.replace(/&#x2b;|&#43;/gi, "+"), "base64")).toString("utf8");
}

function postXml(app: FastifyInstance, xml: string, cookie: string) {
  return app.inject({
    method: "POST",
    url: "/saml/sso",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString("base64") }).toString(),
  });
}

describe("XML attacks on the SAML endpoints", () => {
  let test: TestApp;
  let cookie: string;
  let open: NodeSamlSp;
  let signing: NodeSamlSp;

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    const certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    await addPerson(test.app, { username: "a.melnyk", fullName: "Андрій Мельник", email: "a.melnyk@kpi.ua" }, password);
    cookie = await signIn(test.app, "a.melnyk", password);
    open = nodeSamlSp({
      baseUrl: "https://open.example.org",
      idpUrl: TEST_PUBLIC_URL,
      idpCertificate: certificate,
      signRequests: false,
    });
    signing = nodeSamlSp({
      baseUrl: "https://signing.example.org",
      idpUrl: TEST_PUBLIC_URL,
      idpCertificate: certificate,
    });
    for (const sp of [open, signing])
      await upsertServiceProvider(
        test.app.db,
        await parseSpMetadata(sp.metadata),
        "manual",
        { releasedAttributes: ["mail"], firstParty: true },
        new Date(),
      );
  });
  afterAll(() => test?.close());

  const refused = (response: { statusCode: number; json(): { code?: string } }) => {
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("saml.request_refused");
  };

  it("accepts the plain request these attacks start from", async () => {
    const response = await test.app.inject({
      url: redirectUrl(unsignedRequest(open.entityId, "_plain1")),
      headers: { cookie },
    });
    expect(response.statusCode).toBe(303);
  });

  it("refuses entity expansion (billion laughs) and external entities", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${unsignedRequest("&b;", "_laughs")}`;
    const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${unsignedRequest("&x;", "_xxe")}`;
    for (const xml of [laughs, external])
      refused(await test.app.inject({ url: redirectUrl(xml), headers: { cookie } }));
  });

  it("refuses comments inside values (an Issuer read one way and verified another)", async () => {
    const issuer = open.entityId.replace("open", "op<!---->en");
    refused(await test.app.inject({ url: redirectUrl(unsignedRequest(issuer, "_comment")), headers: { cookie } }));
  });

  it("refuses an oversized request, compressed or not", async () => {
    const padding = `<samlp:Extensions>${'<x:y xmlns:x="urn:x">aaaa</x:y>'.repeat(4000)}</samlp:Extensions>`;
    const big = unsignedRequest(open.entityId, "_big", padding);
    refused(await test.app.inject({ url: redirectUrl(big), headers: { cookie } }));
    refused(await postXml(test.app, big, cookie));
  });

  it("refuses signature wrapping: a signed request moved inside an unsigned one with another ACS", async () => {
    const original = await signedPostXml(signing);
    expect((await postXml(test.app, original, cookie)).statusCode).toBe(303);
    const replayable = await signedPostXml(signing);
    const inner = replayable.replace(/^<\?xml[^>]*\?>/, "");
    const wrapped = unsignedRequest(
      signing.entityId,
      "_evil",
      `<samlp:Extensions><x:w xmlns:x="urn:x">${inner}</x:w></samlp:Extensions>`,
    ).replace(
      "<samlp:AuthnRequest ",
      '<samlp:AuthnRequest AssertionConsumerServiceURL="https://evil.example.net/acs" ',
    );
    refused(await postXml(test.app, wrapped, cookie));
    const signature = inner.match(/<ds:Signature[\s\S]*<\/ds:Signature>/)?.[0] ?? "";
    const unsignedInner = inner.replace(signature, "");
    const signatureOutside = unsignedRequest(
      signing.entityId,
      "_evil2",
      `${signature}<samlp:Extensions><x:w xmlns:x="urn:x">${unsignedInner}</x:w></samlp:Extensions>`,
    );
    refused(await postXml(test.app, signatureOutside, cookie));
  });

  it("encrypts the assertion to the SP's key when its policy says so, and the SP decrypts it", async () => {
    await upsertServiceProvider(
      test.app.db,
      await parseSpMetadata(open.metadata),
      "manual",
      { encryptAssertions: true },
      new Date(),
    );
    const first = await test.app.inject({
      url: redirectUrl(unsignedRequest(open.entityId, "_enc1")),
      headers: { cookie },
    });
    const page = await test.app.inject({ url: String(first.headers.location), headers: { cookie } });
    const response = page.body.match(/name="SAMLResponse" value="([^"]*)"/)?.[1]?.replace(/&#43;/g, "+") ?? "";
    const xml = Buffer.from(response, "base64").toString("utf8");
    expect(xml).toContain("EncryptedAssertion");
    expect(xml).not.toContain("a.melnyk@kpi.ua");
    const { profile } = await open.saml.validatePostResponseAsync({ SAMLResponse: response });
    expect(profile?.["urn:oid:0.9.2342.19200300.100.1.3"]).toBe("a.melnyk@kpi.ua");
  });
});
