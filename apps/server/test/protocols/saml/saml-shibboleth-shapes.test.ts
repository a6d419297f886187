import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpPolicy, upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { xsBoolean } from "../../../src/protocols/saml/xs-boolean.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { browse, formOf } from "./browse.ts";
import { makeKeyPair } from "./keys.ts";
import { type NodeSamlSp, type NodeSamlSpOptions, nodeSamlSp } from "./node-saml-sp.ts";
import { pysaml2Accepts, pysaml2Metadata, pysaml2Request } from "./pysaml2-sp.ts";

const password = "correct horse battery staple";

async function register(app: FastifyInstance, metadata: string, policy: SpPolicy = {}) {
  await upsertServiceProvider(
    app.db,
    await parseSpMetadata(metadata),
    "manual",
    { releasedAttributes: ["mail"], firstParty: true, ...policy },
    new Date(),
  );
}

/** The request as Shibboleth writes it: the same AuthnRequest with its booleans as "1" and no signature. */
async function shibbolethShaped(sp: NodeSamlSp, flags: Record<string, string>): Promise<string> {
  const url = new URL(await sp.saml.getAuthorizeUrlAsync("", undefined, {}));
  let xml = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  for (const [name, value] of Object.entries(flags)) {
    xml = xml
      .replace(new RegExp(` ${name}="[^"]*"`), "")
      .replace("<samlp:AuthnRequest ", `<samlp:AuthnRequest ${name}="${value}" `);
  }
  const query = new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString("base64") });
  return `/saml/sso?${query}`;
}

/** Issue 35 point 5: SAML booleans are xs:boolean (Shibboleth writes "1"); SHA-1 signatures are refused. */
describe("SAML requests as Shibboleth and older SPs write them", () => {
  let test: TestApp;
  let certificate: string;
  let cookie: string;
  /** The operator's log at warn, where a refused message says which SP and why. */
  const logLines: string[] = [];
  const sp = (options: Partial<NodeSamlSpOptions>) =>
    nodeSamlSp({ idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate, signRequests: false, ...options });

  beforeAll(async () => {
    test = await createTestApp(
      "pglite",
      { LOG_LEVEL: "warn" },
      { protocols: ["saml"], logStream: { write: (line) => logLines.push(line) } },
    );
    certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    await addPerson(test.app, { username: "o.koval", fullName: "Олена Коваленко", email: "o.koval@kpi.ua" }, password);
    cookie = await signIn(test.app, "o.koval", password);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("reads xs:boolean's four spellings, with whitespace, and nothing else as true", () => {
    expect(["true", "1", " 1 ", "\ttrue\n"].map(xsBoolean)).toEqual([true, true, true, true]);
    expect(["false", "0", "", "yes", "TRUE", "on", null, undefined].map(xsBoolean)).toEqual(new Array(8).fill(false));
  });

  it('ForceAuthn="1" sends a signed-in person back to the sign-in screen', async () => {
    const shib = sp({ baseUrl: "https://force-one.example.org" });
    await register(test.app, shib.metadata.replace(/AuthnRequestsSigned="true"/, 'AuthnRequestsSigned="0"'));
    const page = await browse(test.app, await shibbolethShaped(shib, { ForceAuthn: "1" }), cookie);
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe("/uk/?reauth=1");
  });

  it('IsPassive="1" without a session answers NoPassive instead of showing the sign-in screen', async () => {
    const shib = sp({ baseUrl: "https://passive-one.example.org" });
    await register(test.app, shib.metadata.replace(/AuthnRequestsSigned="true"/, 'AuthnRequestsSigned="0"'));
    const page = await browse(test.app, await shibbolethShaped(shib, { IsPassive: "1" }));
    expect(page.statusCode, page.body).toBe(200);
    const xml = Buffer.from(formOf(page.body).SAMLResponse, "base64").toString("utf8");
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:status:NoPassive");
  });

  it('an SP whose metadata says AuthnRequestsSigned="1" has its unsigned requests refused', async () => {
    const shib = sp({ baseUrl: "https://signed-one.example.org" });
    const metadata = shib.metadata
      .replace(/ AuthnRequestsSigned="[^"]*"/, "")
      .replace("<SPSSODescriptor ", '<SPSSODescriptor AuthnRequestsSigned="1" ');
    expect(metadata).toContain('AuthnRequestsSigned="1"');
    await register(test.app, metadata);
    const refused = await test.app.inject({ url: await shibbolethShaped(shib, {}), headers: { cookie } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("saml.request_refused");
  });

  it("a request signed with RSA-SHA1 is refused; the same SP signing with RSA-SHA256 is answered", async () => {
    const baseUrl = "https://sha1.example.org";
    const weak = sp({ baseUrl, signRequests: true });
    const weakSaml = weak.saml as unknown as { options: { signatureAlgorithm: string } };
    weakSaml.options.signatureAlgorithm = "sha1";
    await register(test.app, weak.metadata);
    const url = new URL(await weak.saml.getAuthorizeUrlAsync("", undefined, {}));
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2000/09/xmldsig#rsa-sha1");
    const refused = await test.app.inject({ url: `${url.pathname}${url.search}`, headers: { cookie } });
    expect(refused.statusCode).toBe(400);
    // Its own code: the page tells the person what the SP's operator must change (issue 59).
    expect(refused.json().code).toBe("saml.weak_signature");
    // The operator's log names the SP and says what its operator must change.
    const logged = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === "SAML message refused" && entry.sp === weak.entityId);
    expect(logged?.samlRefusal).toContain(
      'load the IdP metadata again (it advertises RSA-SHA256) or set signingAlg="rsa-sha256"',
    );
    // A person's browser is sent to a page in their language that says so, not shown the JSON.
    for (const [acceptLanguage, language] of [
      ["en-GB,en;q=0.9", "en"],
      ["uk-UA,uk;q=0.9", "uk"],
    ]) {
      const navigation = await test.app.inject({
        url: `${url.pathname}${url.search}`,
        headers: { cookie, accept: "text/html,application/xhtml+xml", "accept-language": acceptLanguage },
      });
      expect(navigation.statusCode).toBe(303);
      expect(navigation.headers.location).toBe(`/${language}/consent?samlError=saml.weak_signature`);
    }
    weakSaml.options.signatureAlgorithm = "sha256";
    const page = await browse(test.app, await weak.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    expect(formOf(page.body).action).toBe(weak.acsUrl);
  });

  it("a browser whose SP's sign-in has expired, or that brought no request, sees a page instead of JSON", async () => {
    const html = { accept: "text/html", "accept-language": "en" };
    const expired = await test.app.inject({ url: "/saml/continue/no-such-request", headers: { ...html, cookie } });
    expect(expired.statusCode).toBe(303);
    expect(expired.headers.location).toBe("/en/consent?samlError=saml.request_not_found");
    const empty = await test.app.inject({ url: "/saml/sso", headers: html });
    expect(empty.statusCode).toBe(303);
    expect(empty.headers.location).toMatch(
      /^\/en\/consent\?samlError=(saml\.request_refused|request\.validation_failed)$/,
    );
  });

  it("an SP that wants the Response signed as well (pysaml2, SATOSA) gets it when its policy says so, encrypted or not", async () => {
    for (const encryptAssertions of [false, true]) {
      const strict = sp({ baseUrl: `https://strict-${encryptAssertions}.example.org`, wantResponseSigned: true });
      const metadata = strict.metadata.replace(/AuthnRequestsSigned="true"/, 'AuthnRequestsSigned="false"');
      await register(test.app, metadata, { encryptAssertions });
      const answer = async () => {
        const page = await browse(test.app, await strict.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
        return formOf(page.body).SAMLResponse;
      };
      // By default only the assertion is signed: this SP refuses the answer.
      await expect(strict.saml.validatePostResponseAsync({ SAMLResponse: await answer() })).rejects.toThrow(
        /signature/i,
      );
      await register(test.app, metadata, { encryptAssertions, signResponse: true });
      const signed = await answer();
      const xml = Buffer.from(signed, "base64").toString("utf8");
      expect(xml.includes("EncryptedAssertion")).toBe(encryptAssertions);
      const { profile } = await strict.saml.validatePostResponseAsync({ SAMLResponse: signed });
      expect(profile?.["urn:oid:0.9.2342.19200300.100.1.3"]).toBe("o.koval@kpi.ua");
    }
  });

  it("stock pysaml2 (SATOSA's library) refuses the default answer and accepts the one its SP's policy signs whole", async () => {
    const keys = makeKeyPair("pysaml2-sp");
    const idpMetadata = (await test.app.inject({ url: "/saml/metadata" })).body;
    const settings = {
      entityId: "https://satosa.example.org/sp.xml",
      acsUrl: "https://satosa.example.org/acs/post",
      keys,
      idpMetadata,
      wantResponseSigned: true,
    };
    const metadata = pysaml2Metadata({ ...settings, idpMetadata: "" });
    const signIn = async () => {
      const request = pysaml2Request(settings);
      const page = await browse(test.app, request.url, cookie);
      const form = formOf(page.body);
      expect(form.action).toBe(settings.acsUrl);
      return pysaml2Accepts(settings, form.SAMLResponse, request.id);
    };
    await register(test.app, metadata);
    const refused = await signIn();
    expect(refused.attributes).toBeUndefined();
    expect(refused.error).toMatch(/sign/i);
    await register(test.app, metadata, { signResponse: true });
    const accepted = await signIn();
    expect(accepted.error).toBeUndefined();
    expect(accepted.attributes?.mail).toEqual(["o.koval@kpi.ua"]);
  });
});
