import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { endSessions } from "../../../src/model/sessions/end-sessions.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { browse, formOf } from "./browse.ts";
import { type NodeSamlSp, nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";
const soapBinding = "urn:oasis:names:tc:SAML:2.0:bindings:SOAP";

interface Posted {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An SP's SOAP logout endpoint: keeps what it was posted and answers 200, as mod_auth_mellon does. */
function soapEndpoint(): Promise<{ server: Server; url: string; posted: Posted[] }> {
  const posted: Posted[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      posted.push({ headers: request.headers, body });
      response.setHeader("content-type", "text/xml");
      response.end("<soap11:Envelope xmlns:soap11='http://schemas.xmlsoap.org/soap/envelope/'/>");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/slo/soap`, posted });
    }),
  );
}

/**
 * Issue 74: a sign-out without a browser (an operator, a password change, disabling) tells each SAML SP with a
 * SOAP SingleLogoutService over the back channel, once, with a LogoutRequest the SP's own library accepts.
 * e2e/specs/sign-out-everywhere.spec.ts checks the same against mod_auth_mellon.
 */
describe("SAML back-channel logout (SOAP)", () => {
  let test: TestApp;
  let sp: NodeSamlSp;
  let endpoint: Awaited<ReturnType<typeof soapEndpoint>>;
  let userId = "";

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    endpoint = await soapEndpoint();
    const certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    userId = (await addPerson(test.app, { username: "o.koval", fullName: "Олена Коваленко" }, password)).id;
    sp = nodeSamlSp({ baseUrl: "https://library.example.org", idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate });
    // node-saml's metadata lists its HTTP endpoints; a mellon or Shibboleth SP lists SOAP first, as here.
    const metadata = sp.metadata.replace(
      "<SingleLogoutService",
      `<SingleLogoutService Binding="${soapBinding}" Location="${endpoint.url}"/><SingleLogoutService`,
    );
    // The endpoint is http on loopback, as outside production (parseSpMetadata refuses it in production).
    const parsed = await parseSpMetadata(metadata, { allowLoopbackHttp: true });
    await upsertServiceProvider(test.app.db, parsed, "manual", { firstParty: true }, new Date());
  });
  afterAll(async () => {
    endpoint?.server.close();
    await test?.close();
  });

  /** Signs the person in at KPI ID, then at the SP; answers the cookie and what the SP was told. */
  async function signedIntoSp() {
    const cookie = await signIn(test.app, "o.koval", password);
    const page = await browse(test.app, await sp.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formOf(page.body).SAMLResponse });
    if (!profile) throw new Error("not signed in");
    return { cookie, profile };
  }

  it("the SP's own LogoutRequest through the browser: answered there, not also told over SOAP", async () => {
    const { cookie, profile } = await signedIntoSp();
    const before = endpoint.posted.length;
    const answer = await browse(test.app, await sp.saml.getLogoutUrlAsync(profile, "", {}), cookie);
    expect(answer.statusCode).toBeLessThan(400);
    expect(endpoint.posted).toHaveLength(before);
  });

  it("an operator ending the sessions: the SP gets one signed LogoutRequest naming its NameID and SessionIndex", async () => {
    const { profile } = await signedIntoSp();
    const before = endpoint.posted.length;
    const ending = { db: test.app.db, now: new Date(), signOut: test.app.signOut };
    expect(await endSessions(ending, { userId }, { reason: "operator" })).toBe(1);
    expect(endpoint.posted).toHaveLength(before + 1);
    const { headers, body } = endpoint.posted[before] as Posted;
    expect(headers["content-type"]).toMatch(/^text\/xml/);
    const logoutRequest = /<soap11:Body>([\s\S]*)<\/soap11:Body>/.exec(body)?.[1] ?? "";
    // The SP's library checks our signature and reads whom to sign out.
    const told = await sp.saml.validatePostRequestAsync({
      SAMLRequest: Buffer.from(logoutRequest).toString("base64"),
    });
    expect(told.loggedOut).toBe(true);
    expect(told.profile?.nameID).toBe(profile.nameID);
    expect(told.profile?.sessionIndex).toBe(profile.sessionIndex);

    // Told once: ending the person's sessions again finds none and tells nobody.
    expect(await endSessions(ending, { userId }, { reason: "operator" })).toBe(0);
    expect(endpoint.posted).toHaveLength(before + 1);
  });
});
