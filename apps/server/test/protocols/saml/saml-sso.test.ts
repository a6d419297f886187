import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { createSession } from "../../../src/model/sessions/store.ts";
import { passwordAndCode } from "../../../src/model/sessions/strength.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, sessionCookieFrom, signIn } from "../../support/campus.ts";
import { browse, formOf } from "./browse.ts";
import { type NodeSamlSp, type NodeSamlSpOptions, nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";

/** First-party SPs (no consent screen; saml-consent.test.ts covers the others). */
async function register(app: FastifyInstance, sp: NodeSamlSp, releasedAttributes: string[] = []) {
  const policy = { releasedAttributes, firstParty: true };
  await upsertServiceProvider(app.db, await parseSpMetadata(sp.metadata), "manual", policy, new Date());
}

describe("SAML Web Browser SSO with a @node-saml/node-saml service provider", () => {
  let test: TestApp;
  let certificate: string;
  let cookie: string;
  const sp = (options: Partial<NodeSamlSpOptions> = {}) =>
    nodeSamlSp({ idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate, ...options });
  let library: NodeSamlSp;

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
    await addPerson(
      test.app,
      {
        username: "o.koval",
        fullName: "Олена Коваленко",
        email: "o.koval@kpi.ua",
        studentId: "KV-1",
        taxId: "3012345678",
      },
      password,
    );
    cookie = await signIn(test.app, "o.koval", password);
    library = sp({ baseUrl: "https://library.example.org" });
    await register(test.app, library, ["eduPersonPrincipalName", "mail", "displayName", "eduPersonScopedAffiliation"]);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("answers a signed HTTP-Redirect request with a signed assertion the SP accepts, with the allowed attributes", async () => {
    const url = await library.saml.getAuthorizeUrlAsync("back-to-page-7", undefined, {});
    const page = await browse(test.app, url, cookie);
    expect(page.statusCode, page.body).toBe(200);
    const form = formOf(page.body);
    expect(form.action).toBe(library.acsUrl);
    expect(form.RelayState).toBe("back-to-page-7");
    const xml = Buffer.from(form.SAMLResponse, "base64").toString("utf8");
    expect(xml).toContain('SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"');
    const { profile } = await library.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    expect(profile?.["urn:oid:0.9.2342.19200300.100.1.3"]).toBe("o.koval@kpi.ua");
    expect(profile?.["urn:oid:2.16.840.1.113730.3.1.241"]).toBe("Олена Коваленко");
    expect(profile?.["urn:oid:1.3.6.1.4.1.5923.1.1.1.9"]).toEqual(["member@kpi.ua", "student@kpi.ua"]);
    expect(profile?.["urn:oid:1.3.6.1.4.1.25178.1.2.9"]).toBeUndefined();
    expect(profile?.nameID).toMatch(/^[0-9a-f]{64}$/);
  });

  it("writes nothing to stderr for a sign-in (samlify warned on every message: noise in the journal at the peak)", async () => {
    const warn = vi.spyOn(console, "warn");
    try {
      const url = await library.saml.getAuthorizeUrlAsync("quiet", undefined, {});
      const page = await browse(test.app, url, cookie);
      expect(formOf(page.body).SAMLResponse).not.toBe("");
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("answers an HTTP-POST request the same way", async () => {
    const html = await library.saml.getAuthorizeFormAsync("post-relay");
    const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? "";
    const posted = await test.app.inject({
      method: "POST",
      url: "/saml/sso",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "https://library.example.org" },
      payload: new URLSearchParams({ SAMLRequest: field("SAMLRequest"), RelayState: field("RelayState") }).toString(),
    });
    expect(posted.statusCode, posted.body).toBe(303);
    const page = await test.app.inject({ method: "GET", url: String(posted.headers.location), headers: { cookie } });
    const { profile } = await library.saml.validatePostResponseAsync({ SAMLResponse: formOf(page.body).SAMLResponse });
    expect(profile?.["urn:oid:0.9.2342.19200300.100.1.3"]).toBe("o.koval@kpi.ua");
  });

  it("without a session sends the browser to the sign-in screen, and back to the SP after signing in", async () => {
    const url = await library.saml.getAuthorizeUrlAsync("", undefined, {});
    const toSignIn = await browse(test.app, url);
    expect(toSignIn.statusCode).toBe(303);
    expect(toSignIn.headers.location).toBe("/uk/");
    const pending = toSignIn.cookies.find((c) => c.name === "kpi_id_continue");
    const continueCookie = `${pending?.name}=${pending?.value}`;
    const auth = await postJson(test.app, "/api/auth", { username: "o.koval", password });
    const internal = await postJson(
      test.app,
      "/api/auth/internal",
      { sessionId: auth.json().sessionId },
      {
        headers: { cookie: continueCookie },
      },
    );
    const next = internal.json().next;
    expect(next).toMatch(/^\/saml\/continue\/[A-Za-z0-9_-]+$/);
    const back = await test.app.inject({ method: "GET", url: next, headers: { cookie: sessionCookieFrom(internal) } });
    expect(formOf(back.body).action).toBe(library.acsUrl);
  });

  it("IsPassive without a session answers NoPassive at once", async () => {
    const passive = sp({ baseUrl: "https://passive.example.org", passive: true });
    await register(test.app, passive);
    const page = await browse(test.app, await passive.saml.getAuthorizeUrlAsync("", undefined, {}));
    expect(page.statusCode, page.body).toBe(200);
    const xml = Buffer.from(formOf(page.body).SAMLResponse, "base64").toString("utf8");
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:status:NoPassive");
    expect(xml).not.toContain("Assertion");
  });

  it("ForceAuthn sends a signed-in person back to the sign-in screen", async () => {
    const forced = sp({ baseUrl: "https://forced.example.org", forceAuthn: true });
    await register(test.app, forced);
    const page = await browse(test.app, await forced.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe("/uk/?reauth=1");
  });

  it("REFEDS MFA: a one-factor session steps up (sign-in again), and is answered NoAuthnContext if still one factor", async () => {
    const mfa = sp({ baseUrl: "https://mfa.example.org", authnContext: ["https://refeds.org/profile/mfa"] });
    await register(test.app, mfa);
    const url = (await mfa.saml.getAuthorizeUrlAsync("", undefined, {})).replace(TEST_PUBLIC_URL, "");
    const accepted = await test.app.inject({ method: "GET", url });
    const continueUrl = String(accepted.headers.location);
    const weak = await test.app.inject({ method: "GET", url: continueUrl, headers: { cookie } });
    expect(weak.statusCode).toBe(303);
    // The gate's step-up, as on every protocol: the sign-in screen asking for the stronger way in (issue 74).
    expect(weak.headers.location).toBe("/uk/?reauth=1&mfa=1");
    // Signed in again, with a password only: the SP hears its context cannot be met.
    const again = await signIn(test.app, "o.koval", password);
    const page = await test.app.inject({ method: "GET", url: continueUrl, headers: { cookie: again } });
    expect(page.statusCode, page.body).toBe(200);
    expect(Buffer.from(formOf(page.body).SAMLResponse, "base64").toString("utf8")).toContain("status:NoAuthnContext");
  });

  it("REFEDS MFA: a session that proved two factors gets the assertion with AuthnContextClassRef REFEDS MFA", async () => {
    const mfa = sp({ baseUrl: "https://mfa2.example.org", authnContext: ["https://refeds.org/profile/mfa"] });
    await register(test.app, mfa);
    const user = await test.app.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "o.koval")
      .executeTakeFirstOrThrow();
    const { token } = await createSession(
      test.app.db,
      { userId: user.id, authMethod: "PASSWORD", amr: passwordAndCode },
      test.config.sessions,
      new Date(),
    );
    const page = await browse(
      test.app,
      await mfa.saml.getAuthorizeUrlAsync("", undefined, {}),
      `kpi_id_session=${token}`,
    );
    expect(page.statusCode, page.body).toBe(200);
    const { profile } = await mfa.saml.validatePostResponseAsync({ SAMLResponse: formOf(page.body).SAMLResponse });
    expect(profile?.getAssertionXml?.()).toContain(
      "<saml:AuthnContextClassRef>https://refeds.org/profile/mfa</saml:AuthnContextClassRef>",
    );
    // A one-factor session's assertion says password, not MFA.
    const plain = await browse(test.app, await library.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    const answer = await library.saml.validatePostResponseAsync({ SAMLResponse: formOf(plain.body).SAMLResponse });
    expect(answer.profile?.getAssertionXml?.()).toContain("ac:classes:PasswordProtectedTransport");
  });

  it("refuses an unsigned request when the SP's metadata requires signing", async () => {
    const unsigned = sp({ baseUrl: "https://library.example.org", entityId: library.entityId, signRequests: false });
    const page = await browse(test.app, await unsigned.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    expect(page.statusCode).toBe(400);
    expect(page.json().code).toBe("saml.request_refused");
  });

  it("refuses an unknown SP", async () => {
    const stranger = sp({ baseUrl: "https://stranger.example.org" });
    const page = await browse(test.app, await stranger.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    expect(page.statusCode).toBe(400);
    expect(page.json().code).toBe("saml.request_refused");
  });

  it("refuses a replayed request id", async () => {
    const url = await library.saml.getAuthorizeUrlAsync("", undefined, {});
    expect((await browse(test.app, url, cookie)).statusCode).toBe(200);
    const again = await browse(test.app, url, cookie);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("saml.request_refused");
  });

  it("refuses an assertion consumer URL that is not in the SP's metadata", async () => {
    const open = sp({ baseUrl: "https://open.example.org", signRequests: false });
    await register(test.app, open);
    const elsewhere = sp({ baseUrl: "https://evil.example.net", entityId: open.entityId, signRequests: false });
    expect((await browse(test.app, await open.saml.getAuthorizeUrlAsync("", undefined, {}), cookie)).statusCode).toBe(
      200,
    );
    const page = await browse(test.app, await elsewhere.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
    expect(page.statusCode).toBe(400);
    expect(page.json().code).toBe("saml.request_refused");
  });

  it("Single Logout: the SP's signed LogoutRequest ends the KPI ID session and gets a LogoutResponse", async () => {
    const ownCookie = await signIn(test.app, "o.koval", password);
    const page = await browse(test.app, await library.saml.getAuthorizeUrlAsync("", undefined, {}), ownCookie);
    const { profile } = await library.saml.validatePostResponseAsync({ SAMLResponse: formOf(page.body).SAMLResponse });
    if (!profile) throw new Error("no profile");
    const logoutUrl = await library.saml.getLogoutUrlAsync(profile, "after-logout", {});
    const answer = await browse(test.app, logoutUrl);
    expect(answer.statusCode, answer.body).toBe(200);
    const form = formOf(answer.body);
    expect(form.action).toBe(library.sloUrl);
    expect(form.RelayState).toBe("after-logout");
    const logoutResponse = Buffer.from(form.SAMLResponse, "base64").toString();
    expect(logoutResponse).toContain("urn:oasis:names:tc:SAML:2.0:status:Success");
    expect(logoutResponse).toContain("SignatureValue");
    const user = await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie: ownCookie } });
    expect(user.statusCode).toBe(401);
    // The other browser's session is not the one the SP knew: it stays.
    expect((await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).statusCode).toBe(200);
  });

  it("Single Logout refuses an unsigned LogoutRequest", async () => {
    const unsigned = sp({ baseUrl: "https://library.example.org", entityId: library.entityId, signRequests: false });
    const url = await unsigned.saml.getLogoutUrlAsync(
      {
        issuer: library.entityId,
        nameID: "x",
        nameIDFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
        sessionIndex: "_x",
      },
      "",
      {},
    );
    const answer = await test.app.inject({ method: "GET", url: url.replace(TEST_PUBLIC_URL, "") });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toBe("saml.request_refused");
  });
});
