import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccessRule } from "../../../../src/model/access/rules.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../../../support/app.ts";
import { addApplication, sessionCookieFrom } from "../../../support/campus.ts";
import { aboveModelDatabase } from "../../../support/databases.ts";
import type { HomeIdp } from "../../../support/simplesamlphp.ts";
import { homeUniversity, researcher } from "./institution-home-idp.ts";

const cookiesOf = (response: LightMyRequestResponse) =>
  response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");

describe("a researcher signs in with their home university, SimpleSAMLphp", () => {
  let test: TestApp;
  let home: HomeIdp;

  beforeAll(async () => {
    test = await createTestApp(
      aboveModelDatabase,
      { SAML_VISITOR_FEDERATIONS: "research", LOG_LEVEL: "error" },
      { protocols: ["saml", "tickets"], logStream: process.stderr },
    );
    home = await homeUniversity(
      test.app,
      {
        olena: researcher("r42@home.example.org", "Olena Researcher", { multiFactor: true }),
        petro: researcher("p7@home.example.org", "Petro Onefactor"),
        olena2: researcher("r43@home.example.org", "Olena Strong", { multiFactor: true }),
        petro2: researcher("p8@home.example.org", "Petro Weak"),
        mallory: researcher("m1@evil.example.org", "Mallory Otherscope"),
      },
      new Date(Date.now() + 7 * 86_400_000),
    );
  });
  afterAll(async () => {
    await home?.stop();
    await test?.close();
  });

  /** The browser's walk: start at KPI ID, sign in at home, post the answer back; answers the finish step. */
  async function goHome(username: string, password = "home secret 1") {
    const start = await postJson(test.app, "/api/institution/start", { entityId: home.entityId });
    expect(start.statusCode, start.body).toBe(200);
    const browser = cookiesOf(start);
    const samlResponse = await home.signIn(start.json().redirect, username, password);
    const answer = await test.app.inject({
      method: "POST",
      url: "/saml/sp/acs",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://127.0.0.1" },
      payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
    return { browser, samlResponse, answer };
  }

  const finish = (location: string, cookie: string) =>
    test.app.inject({ method: "GET", url: location, headers: { cookie, accept: "text/html" } });

  it("lists the home university on the discovery screen, in either language", async () => {
    for (const words of ["Home Univ", "Домашній", "home.example"]) {
      const found = await test.app.inject({ method: "GET", url: `/api/institutions?q=${encodeURIComponent(words)}` });
      expect(found.json().institutions).toEqual([
        { entityId: home.entityId, en: "Home University", uk: "Домашній університет", domains: ["home.example.org"] },
      ]);
    }
  });

  it("makes a visitor account on the first sign-in after the person agrees, and finds it on the next", async () => {
    const first = await goHome("olena");
    expect(first.answer.statusCode, first.answer.body).toBe(303);
    const finished = await finish(first.answer.headers.location as string, first.browser);
    expect(finished.statusCode).toBe(303);
    const welcome = finished.headers.location as string;
    expect(welcome).toMatch(/^\/uk\/institution\?request=/);
    const request = new URL(welcome, TEST_ORIGIN).searchParams.get("request") ?? "";
    const shown = await test.app.inject({
      method: "GET",
      url: `/api/institution/welcome?request=${request}`,
      headers: { cookie: first.browser },
    });
    expect(shown.json()).toMatchObject({
      institution: { en: "Home University" },
      name: "Olena Researcher",
      email: "mail@home.example.org",
      affiliations: ["faculty@home.example.org"],
      multiFactor: true,
    });
    const accepted = await postJson(
      test.app,
      "/api/institution/accept",
      { request },
      { headers: { cookie: first.browser } },
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const session = sessionCookieFrom(accepted);
    const me = await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie: session } });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.body).toContain("Olena Researcher");

    const again = await goHome("olena");
    const signedIn = await finish(again.answer.headers.location as string, again.browser);
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).not.toContain("request=");
    const secondSession = sessionCookieFrom(signedIn);
    const account = await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie: secondSession } });
    expect(account.body).toContain("Olena Researcher");
  });

  /** A first sign-in all the way: the institution, the agreement, the account; answers the session cookie. */
  async function newVisitor(username: string) {
    const { answer, browser } = await goHome(username);
    const welcome = (await finish(answer.headers.location as string, browser)).headers.location as string;
    const request = new URL(welcome, TEST_ORIGIN).searchParams.get("request") ?? "";
    return sessionCookieFrom(
      await postJson(test.app, "/api/institution/accept", { request }, { headers: { cookie: browser } }),
    );
  }

  it("lets visitors into an application for affiliates; REFEDS MFA at home meets its second-factor requirement", async () => {
    const { application } = await addApplication(test.app, "https://lab.example.edu/kpi-id/callback");
    await test.app.db
      .updateTable("applications")
      .set({ require_mfa: true, first_party: true })
      .where("id", "=", application.id)
      .execute();
    await addAccessRule(test.app.db, application.id, { affiliation: "affiliate" }, { actor: "test" });
    const open = (cookie: string) =>
      test.app.inject({ url: `/api/app-redirect?appId=${application.id}`, headers: { cookie } });
    const strong = await open(await newVisitor("olena2"));
    expect(strong.headers.location).toMatch(/^https:\/\/lab\.example\.edu\/kpi-id\/callback\?ticketId=/);
    const oneFactor = await open(await newVisitor("petro2"));
    // One factor at home: KPI ID asks for its own second factor, which a new visitor first sets up.
    expect(oneFactor.headers.location).toBe("/uk/account#second-factor");
  });

  it("refuses the same answer twice, and an answer used from another browser", async () => {
    const { answer, samlResponse, browser } = await goHome("petro");
    const replay = await test.app.inject({
      method: "POST",
      url: "/saml/sp/acs",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/\/institution\?error=institution\.(request_expired|answer_refused)/);
    const elsewhere = await finish(answer.headers.location as string, "");
    expect(elsewhere.headers.location).toBe("/uk/institution?error=institution.request_expired");
    const owner = await finish(answer.headers.location as string, browser);
    expect(owner.headers.location).toMatch(/^\/uk\/institution\?request=/);
  });

  it("refuses an identifier whose scope is not the institution's", async () => {
    const { answer } = await goHome("mallory");
    // Cross-site, without the language cookie: the app adds the language this browser chose.
    expect(answer.headers.location).toBe("/institution?error=institution.answer_refused");
  });

  it("refuses an institution visitors may not come from", async () => {
    const start = await postJson(test.app, "/api/institution/start", { entityId: "https://idp.unknown.example/" });
    expect(start.statusCode).toBe(403);
    expect(start.json().code).toBe("institution.not_allowed");
  });
});
