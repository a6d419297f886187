import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../../../support/app.ts";
import { sessionCookieFrom } from "../../../support/campus.ts";
import { aboveModelDatabase } from "../../../support/databases.ts";
import type { HomeIdp } from "../../../support/simplesamlphp.ts";
import { homeUniversity, researcher } from "./institution-home-idp.ts";

const cookiesOf = (response: LightMyRequestResponse) =>
  response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");

describe("a researcher signs in with their home university, SimpleSAMLphp", () => {
  let test: TestApp;
  let home: HomeIdp;

  beforeAll(async () => {
    test = await createTestApp(aboveModelDatabase, { SAML_VISITOR_FEDERATIONS: "research", LOG_LEVEL: "error" }, { logStream: process.stderr });
    home = await homeUniversity(
      test.app,
      {
        olena: researcher("r42@home.example.org", "Olena Researcher", { multiFactor: true }),
        petro: researcher("p7@home.example.org", "Petro Onefactor"),
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
    expect(welcome).toMatch(/^\/uk\/institution\/welcome\?request=/);
    const request = new URL(welcome, TEST_ORIGIN).searchParams.get("request") ?? "";
    const shown = await test.app.inject({ method: "GET", url: `/api/institution/welcome?request=${request}`, headers: { cookie: first.browser } });
    expect(shown.json()).toMatchObject({
      institution: { en: "Home University" },
      name: "Olena Researcher",
      email: "mail@home.example.org",
      affiliations: ["faculty@home.example.org"],
      multiFactor: true,
    });
    const accepted = await postJson(test.app, "/api/institution/accept", { request }, { headers: { cookie: first.browser } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const session = sessionCookieFrom(accepted);
    const me = await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie: session } });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.body).toContain("Olena Researcher");

    const again = await goHome("olena");
    const signedIn = await finish(again.answer.headers.location as string, again.browser);
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).not.toContain("welcome");
    const secondSession = sessionCookieFrom(signedIn);
    const account = await test.app.inject({ method: "GET", url: "/api/user", headers: { cookie: secondSession } });
    expect(account.body).toContain("Olena Researcher");
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
    expect(owner.headers.location).toMatch(/welcome/);
  });

  it("refuses an identifier whose scope is not the institution's", async () => {
    const { answer } = await goHome("mallory");
    expect(answer.headers.location).toBe("/uk/institution?error=institution.answer_refused");
  });

  it("refuses an institution visitors may not come from", async () => {
    const start = await postJson(test.app, "/api/institution/start", { entityId: "https://idp.unknown.example/" });
    expect(start.statusCode).toBe(403);
    expect(start.json().code).toBe("institution.not_allowed");
  });
});
