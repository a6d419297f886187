import { DOMParser } from "@xmldom/xmldom";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { browse, formOf } from "./browse.ts";
import { type NodeSamlSp, nodeSamlSp } from "./node-saml-sp.ts";
import { signEnveloped } from "./sign.ts";

const password = "correct horse battery staple";
const samlp = "urn:oasis:names:tc:SAML:2.0:protocol";
const saml = "urn:oasis:names:tc:SAML:2.0:assertion";

/** A LogoutRequest as an SP sends it by HTTP-POST, enveloped signature by the SP's key. */
function signedLogoutRequest(sp: NodeSamlSp, nameId: string, id: string, inside = ""): string {
  const xml = `<samlp:LogoutRequest xmlns:samlp="${samlp}" xmlns:saml="${saml}" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${TEST_PUBLIC_URL}/saml/slo"><saml:Issuer>${sp.entityId}</saml:Issuer><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${nameId}</saml:NameID><samlp:SessionIndex>_x</samlp:SessionIndex>${inside}</samlp:LogoutRequest>`;
  return signEnveloped(xml, sp.signing, "after-issuer");
}

function postLogout(app: FastifyInstance, xml: string, field = "SAMLRequest") {
  return app.inject({
    method: "POST",
    url: "/saml/slo",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ [field]: Buffer.from(xml).toString("base64") }).toString(),
  });
}

describe("SAML Single Logout, front-channel across SPs", () => {
  let test: TestApp;
  let certificate: string;
  let library: NodeSamlSp;
  let journal: NodeSamlSp;

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    await addPerson(test.app, { username: "o.koval", fullName: "Олена Коваленко" }, password);
    const sp = (host: string) =>
      nodeSamlSp({ baseUrl: `https://${host}`, idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate });
    library = sp("library.example.org");
    journal = sp("journal.example.org");
    for (const each of [library, journal])
      await upsertServiceProvider(
        test.app.db,
        await parseSpMetadata(each.metadata),
        "manual",
        { firstParty: true },
        new Date(),
      );
  });
  afterAll(() => test?.close());

  async function signInTo(sp: NodeSamlSp, cookie: string) {
    const page = await browse(test.app, await sp.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formOf(page.body).SAMLResponse });
    if (!profile) throw new Error("not signed in");
    return profile;
  }

  /** The browser at the IdP's step: the SP takes our LogoutRequest, ends its session and answers. */
  async function spAnswers(sp: NodeSamlSp, page: { body: string }) {
    const form = formOf(page.body);
    expect(form.action).toBe(sp.sloUrl);
    const { profile } = await sp.saml.validatePostRequestAsync({
      SAMLRequest: form.SAMLRequest,
      RelayState: form.RelayState ?? "",
    });
    if (!profile) throw new Error("the SP did not accept our LogoutRequest");
    const answer = await sp.saml.getLogoutResponseUrlAsync(profile, form.RelayState ?? "", {}, true);
    return { profile, next: await browse(test.app, answer) };
  }

  it("an SP's LogoutRequest ends the KPI ID session, the other SP is told, then the initiator is answered", async () => {
    const cookie = await signIn(test.app, "o.koval", password);
    const atLibrary = await signInTo(library, cookie);
    const atJournal = await signInTo(journal, cookie);
    const start = await browse(test.app, await library.saml.getLogoutUrlAsync(atLibrary, "library-state", {}));
    // The journal answers by redirecting back to KPI ID, which the form's CSP must allow.
    expect(start.headers["content-security-policy"]).toContain("form-action https://journal.example.org 'self';");
    // The journal holds the round's id (RelayState), but cannot move the round on without answering.
    const roundPath = `/saml/logout/${formOf(start.body).RelayState}`;
    const skipped = await test.app.inject({ method: "GET", url: roundPath });
    expect(skipped.statusCode).toBe(404);
    expect(skipped.json().code).toBe("saml.request_not_found");
    // The journal hears about it with its own NameID and SessionIndex, signed by KPI ID.
    const { profile, next } = await spAnswers(journal, start);
    expect(profile.nameID).toBe(atJournal.nameID);
    expect(profile.sessionIndex).toBe(atJournal.sessionIndex);
    // The NameID exactly as the assertion had it, qualifiers too (lasso compares them all).
    const nameIdElement = new DOMParser()
      .parseFromString(Buffer.from(formOf(start.body).SAMLRequest, "base64").toString(), "text/xml")
      .getElementsByTagNameNS(saml, "NameID")[0];
    expect(atJournal.nameQualifier).toBe(`${TEST_PUBLIC_URL}/saml/metadata`);
    expect(nameIdElement?.getAttribute("NameQualifier")).toBe(atJournal.nameQualifier);
    expect(nameIdElement?.getAttribute("SPNameQualifier")).toBe(atJournal.spNameQualifier);
    expect(nameIdElement?.getAttribute("Format")).toBe(atJournal.nameIDFormat);
    // Last, the library's LogoutResponse.
    const form = formOf(next.body);
    expect(form.action).toBe(library.sloUrl);
    expect(form.RelayState).toBe("library-state");
    const { loggedOut } = await library.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    expect(loggedOut).toBe(true);
    expect((await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).statusCode).toBe(401);
  });

  it("signing out of KPI ID sends the browser through every SAML SP of the session, then to the sign-in screen", async () => {
    const cookie = await signIn(test.app, "o.koval", password);
    const atLibrary = await signInTo(library, cookie);
    const logout = await postJson(test.app, "/api/auth/logout", undefined, { headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    const next = logout.json().next as string;
    expect(next).toMatch(/^\/saml\/logout\/[A-Za-z0-9_-]+$/);
    const step = await test.app.inject({ method: "GET", url: next });
    const answered = await spAnswers(library, step);
    expect(answered.profile.nameID).toBe(atLibrary.nameID);
    expect(answered.next.statusCode).toBe(303);
    expect(answered.next.headers.location).toBe("/uk/");
    // A round is walked once.
    expect((await test.app.inject({ method: "GET", url: next })).json().code).toBe("saml.request_not_found");
    // Without SAML SPs there is nowhere to go but the page itself.
    const plain = await signIn(test.app, "o.koval", password);
    expect((await postJson(test.app, "/api/auth/logout", undefined, { headers: { cookie: plain } })).json()).toEqual({
      ok: true,
    });
  });

  describe("refusals and XML attacks on logout messages (400 saml.request_refused, nothing ended)", () => {
    let cookie: string;
    let nameId: string;
    beforeAll(async () => {
      cookie = await signIn(test.app, "o.koval", password);
      nameId = (await signInTo(library, cookie)).nameID;
    });
    const refused = async (answer: { statusCode: number; json: () => { code: string } }) => {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().code).toBe("saml.request_refused");
      expect((await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).statusCode).toBe(200);
    };

    it("signature wrapping: the signed request moved inside an unsigned one, or its signature over another element", async () => {
      const genuine = signedLogoutRequest(library, "someone-else", "_genuine-1");
      const wrapped = `<samlp:LogoutRequest xmlns:samlp="${samlp}" xmlns:saml="${saml}" ID="_evil" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${library.entityId}</saml:Issuer><saml:NameID>${nameId}</saml:NameID><samlp:Extensions>${genuine}</samlp:Extensions></samlp:LogoutRequest>`;
      await refused(await postLogout(test.app, wrapped));
      const signature = genuine.match(/<ds:Signature[\s\S]*<\/ds:Signature>/)?.[0] ?? "";
      const reused = `<samlp:LogoutRequest xmlns:samlp="${samlp}" xmlns:saml="${saml}" ID="_evil2" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${library.entityId}</saml:Issuer>${signature}<saml:NameID>${nameId}</saml:NameID></samlp:LogoutRequest>`;
      await refused(await postLogout(test.app, reused));
    });

    it("a signed NameID changed after signing, or read around a comment", async () => {
      const changed = signedLogoutRequest(library, "someone-else", "_changed-1").replace("someone-else", nameId);
      await refused(await postLogout(test.app, changed));
      const half = nameId.slice(0, 8);
      const commented = signedLogoutRequest(library, `${half}<!---->${nameId.slice(8)}`, "_comment-1");
      await refused(await postLogout(test.app, commented));
    });

    it("entity expansion, external entities, oversized, unsigned", async () => {
      const body = signedLogoutRequest(library, nameId, "_dtd-1");
      await refused(
        await postLogout(test.app, `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${body}`),
      );
      await refused(
        await postLogout(
          test.app,
          `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body.replace(nameId, "&xxe;")}`,
        ),
      );
      await refused(
        await postLogout(
          test.app,
          signedLogoutRequest(library, nameId, "_big-1", `<samlp:Extensions>${"A".repeat(70_000)}</samlp:Extensions>`),
        ),
      );
      const unsigned = body.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "");
      await refused(await postLogout(test.app, unsigned));
    });

    it("a replayed LogoutRequest, and a LogoutResponse to nothing KPI ID sent", async () => {
      const other = await signIn(test.app, "o.koval", password);
      const otherNameId = (await signInTo(library, other)).nameID;
      expect(otherNameId).toBe(nameId);
      const once = signedLogoutRequest(library, "nobody", "_once-1");
      expect((await postLogout(test.app, once)).statusCode).toBe(303);
      await refused(await postLogout(test.app, once));
      const response = `<samlp:LogoutResponse xmlns:samlp="${samlp}" xmlns:saml="${saml}" ID="_r1" InResponseTo="_never-sent" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${library.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
      await refused(await postLogout(test.app, response, "SAMLResponse"));
    });
  });
});
