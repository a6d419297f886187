import { casPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { manualClock } from "../../support/campus.ts";
import { casLogin, casXml, serviceTicket, studentWithService, ticketIn, validateAt } from "../../support/cas.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

/** CAS Protocol 3.0 under /cas (issue 59, point 1): each endpoint as a CAS client calls it. */
describe.each(aboveModelDatabases)("CAS Protocol 3.0 (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["cas"], clock: clock.now });
  });
  afterAll(() => t.close());

  it("/login with a session sends the browser to the service with a ST- ticket that /p3/serviceValidate answers once, with attributes", async () => {
    const service = "https://moodle.example.edu/login/index.php?authCAS=CAS";
    const { student } = await studentWithService(t.app, service);
    const { location, path } = await casLogin(t.app, student.cookie, { service });
    expect(path[0]).toMatch(/^\/cas\/continue\/[A-Za-z0-9_-]+$/);
    expect(location).toMatch(/^https:\/\/moodle\.example\.edu\/login\/index\.php\?authCAS=CAS&ticket=ST-[0-9a-f]{64}$/);

    const answer = await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: ticketIn(location) });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/xml/);
    const xml = casXml(answer.body);
    expect(xml.root).toBe("serviceResponse");
    expect(xml.text("user")).toBe(student.username);
    expect(xml.text("userId")).toBe(student.person.id);
    expect(xml.text("displayName")).toBe(student.person.full_name);
    expect(xml.texts("affiliation")).toContain("student");
    expect(xml.text("authMethod")).toBe("PASSWORD");
    // How the person signed in, as the ticket exchange's AUTH_AMR / AUTH_ACR say it: a password, one factor.
    expect(xml.texts("amr")).toEqual(["pwd"]);
    expect(xml.text("acr")).toBe("https://refeds.org/profile/sfa");
    expect(xml.text("isFromNewLogin")).toBe("false");
    expect(xml.text("taxId")).toBeUndefined();

    // A ticket works once.
    const again = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: ticketIn(location) })).body,
    );
    expect(again.failureCode()).toBe("INVALID_TICKET");
  });

  it("answers in JSON with format=JSON, as Apereo CAS writes it", async () => {
    const service = "https://wiki.example.edu/";
    const { student } = await studentWithService(t.app, service, { attributes: ["uid", "affiliation"] });
    clock.advance(60);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const answer = await validateAt(t.app, casPaths.serviceValidate, { service, ticket, format: "JSON" });
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.json()).toEqual({
      serviceResponse: {
        authenticationSuccess: {
          user: student.username,
          attributes: {
            uid: [student.username],
            affiliation: ["student", "member"],
            authenticationDate: [expect.any(String)],
            isFromNewLogin: ["false"],
            longTermAuthenticationRequestTokenUsed: ["false"],
          },
        },
      },
    });
    const failed = await validateAt(t.app, casPaths.serviceValidate, { service, ticket, format: "json" });
    expect(failed.json().serviceResponse.authenticationFailure.code).toBe("INVALID_TICKET");
  });

  it("releases mail (only a proven address), givenName and sn to a service that names them, under its renames, in XML and JSON", async () => {
    const service = "https://gitlab.example.edu/users/auth/cas3/callback?url=https%3A%2F%2Fgitlab.example.edu%2F";
    const { student } = await studentWithService(t.app, service, {
      attributes: ["uid", "mail", "givenName", "sn", "displayName"],
      renames: { mail: "email", uid: "username" },
    });
    const address = `${student.username}@kpi.ua`;
    const person = { full_name: "Петренко Олена Іванівна", verified_email: address };
    await t.app.db.updateTable("users").set(person).where("id", "=", student.person.id).execute();
    const xml = casXml(
      (
        await validateAt(t.app, casPaths.p3ServiceValidate, {
          service,
          ticket: await serviceTicket(t.app, student.cookie, service),
        })
      ).body,
    );
    expect(xml.text("email")).toBe(address);
    expect(xml.text("username")).toBe(student.username);
    expect(xml.text("givenName")).toBe("Олена");
    expect(xml.text("sn")).toBe("Петренко");
    expect(xml.text("mail")).toBeUndefined();
    expect(xml.text("uid")).toBeUndefined();
    expect(xml.text("user")).toBe(student.username);

    clock.advance(60);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const json = await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket, format: "JSON" });
    expect(json.json().serviceResponse.authenticationSuccess.attributes).toMatchObject({
      email: [address],
      username: [student.username],
      givenName: ["Олена"],
      sn: ["Петренко"],
    });
    expect(json.json().serviceResponse.authenticationSuccess.attributes).not.toHaveProperty("mail");

    // An address nobody proved (changed since it was, or never checked) is not released.
    await t.app.db.updateTable("users").set({ email: "typo@kpi.ua" }).where("id", "=", student.person.id).execute();
    clock.advance(60);
    const unproven = await serviceTicket(t.app, student.cookie, service);
    const withoutMail = casXml(
      (await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket: unproven })).body,
    );
    expect(withoutMail.text("email")).toBeUndefined();
    expect(withoutMail.text("givenName")).toBe("Олена");
  });

  it("a service that names no attributes gets neither the e-mail nor the name's parts (they are released only when named)", async () => {
    const service = "https://old.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const address = `${student.username}@kpi.ua`;
    await t.app.db.updateTable("users").set({ verified_email: address }).where("id", "=", student.person.id).execute();
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const xml = casXml((await validateAt(t.app, casPaths.p3ServiceValidate, { service, ticket })).body);
    expect(xml.text("uid")).toBe(student.username);
    expect(xml.text("mail")).toBeUndefined();
    expect(xml.text("givenName")).toBeUndefined();
    expect(xml.text("sn")).toBeUndefined();
  });

  it("CAS 1.0 /validate answers yes and the username, then no", async () => {
    const service = "https://legacy.example.edu/app";
    const { student } = await studentWithService(t.app, service);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const yes = await validateAt(t.app, casPaths.validate, { service, ticket });
    expect(yes.body).toBe(`yes\n${student.username}\n`);
    expect((await validateAt(t.app, casPaths.validate, { service, ticket })).body).toBe("no\n\n");
    expect((await validateAt(t.app, casPaths.validate, {})).body).toBe("no\n\n");
  });

  it("INVALID_REQUEST without service or ticket; INVALID_TICKET for a made-up one; odd and repeated values are missing ones", async () => {
    for (const path of [
      casPaths.serviceValidate,
      casPaths.p3ServiceValidate,
      casPaths.proxyValidate,
      casPaths.p3ProxyValidate,
    ]) {
      expect(casXml((await validateAt(t.app, path, { service: "https://x.example.edu/" })).body).failureCode()).toBe(
        "INVALID_REQUEST",
      );
      expect(casXml((await validateAt(t.app, path, { ticket: "ST-1" })).body).failureCode()).toBe("INVALID_REQUEST");
      const madeUp = await validateAt(t.app, path, { service: "https://x.example.edu/", ticket: "ST-made-up" });
      expect(casXml(madeUp.body).failureCode()).toBe("INVALID_TICKET");
      const repeated = await t.app.inject({ url: `${path}?service=a&service=b&ticket=ST-1&ticket=ST-2` });
      expect(repeated.statusCode).toBe(200);
      expect(casXml(repeated.body).failureCode()).toBe("INVALID_REQUEST");
    }
  });

  it("an expired ticket (past CAS_TICKET_TTL_SECONDS, 10 s) is INVALID_TICKET", async () => {
    const service = "https://slow.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    clock.advance(11);
    expect(casXml((await validateAt(t.app, casPaths.serviceValidate, { service, ticket })).body).failureCode()).toBe(
      "INVALID_TICKET",
    );
  });

  it("a prefix service matches addresses under its path only, and the ticket is bound to the exact address used", async () => {
    const prefix = "https://portal.example.edu/apps/";
    const { student } = await studentWithService(t.app, prefix, { match: "prefix" });
    const service = `${prefix}grades?term=2`;
    const ticket = await serviceTicket(t.app, student.cookie, service);
    const other = casXml(
      (await validateAt(t.app, casPaths.serviceValidate, { service: `${prefix}other`, ticket })).body,
    );
    expect(other.failureCode()).toBe("INVALID_SERVICE");
    for (const outside of [
      "https://portal.example.edu/apps",
      "https://portal.example.edu/apps/../admin",
      "https://portal.example.edu.evil.example/apps/",
    ]) {
      const refused = await t.app.inject({
        url: `${casPaths.login}?${new URLSearchParams({ service: outside })}`,
        headers: { cookie: student.cookie, accept: "text/html" },
      });
      expect(refused.statusCode).toBe(303);
      expect(String(refused.headers.location)).toBe("/uk/consent?samlError=cas.service_not_registered");
    }
  });

  it("method=POST hands the ticket over in a form that posts to the service", async () => {
    const service = "https://forms.example.edu/cas";
    const { student } = await studentWithService(t.app, service);
    const { response } = await casLogin(t.app, student.cookie, { service, method: "POST" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain(`<form method="post" action="${service}">`);
    const ticket = /name="ticket" value="(ST-[0-9a-f]+)"/.exec(response.body)?.[1] ?? "";
    expect(
      casXml((await validateAt(t.app, casPaths.serviceValidate, { service, ticket })).body).text("user"),
    ).toBeDefined();
  });

  it("gateway=true never asks: without a session back to the service without a ticket, with one a ticket", async () => {
    const service = "https://gateway.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const anonymous = await t.app.inject({
      url: `${casPaths.login}?${new URLSearchParams({ service, gateway: "true" })}`,
    });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(service);
    const signedIn = await casLogin(t.app, student.cookie, { service, gateway: "true" });
    expect(ticketIn(signedIn.location)).toMatch(/^ST-/);
  });

  it("without a session the login goes to the sign-in screen and remembers where to continue", async () => {
    const service = "https://anon.example.edu/";
    await studentWithService(t.app, service);
    const { location, response } = await casLogin(t.app, "", { service });
    expect(location).toBe("/uk/");
    expect(response.cookies.some((cookie) => cookie.name === "kpi_id_continue")).toBe(true);
  });

  it("/login without a service: the apps page when signed in; /logout goes to a registered service only", async () => {
    const service = "https://bye.example.edu/";
    const { student } = await studentWithService(t.app, service);
    const bare = await t.app.inject({ url: casPaths.login, headers: { cookie: student.cookie } });
    expect(bare.headers.location).toBe("/uk/apps");
    const away = await t.app.inject({
      url: `${casPaths.logout}?service=${encodeURIComponent("https://evil.example/")}`,
      headers: { cookie: student.cookie },
    });
    expect(away.headers.location).toBe("/uk/");
    // The session is over: the same cookie no longer signs anyone in.
    expect((await casLogin(t.app, student.cookie, { service })).location).toBe("/uk/");
    const { student: other } = await studentWithService(t.app, "https://bye2.example.edu/");
    const back = await t.app.inject({
      url: `${casPaths.logout}?service=${encodeURIComponent(service)}`,
      headers: { cookie: other.cookie },
    });
    expect(back.headers.location).toBe(service);
  });

  it("audits the login and the validation, and counts the sign-in in the application's health", async () => {
    const service = "https://audited.example.edu/";
    const { student, application } = await studentWithService(t.app, service);
    const ticket = await serviceTicket(t.app, student.cookie, service);
    await validateAt(t.app, casPaths.serviceValidate, { service, ticket });
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "details"])
      .where("application_id", "=", application.id)
      .orderBy("id")
      .execute();
    expect(rows.map((row) => [row.event_type, row.result])).toEqual([
      ["app_redirect", "success"],
      ["ticket_exchange", "success"],
    ]);
    expect(rows.every((row) => JSON.stringify(row.details).includes('"via":"cas"'))).toBe(true);
    // Only the hash of the ticket is stored.
    const stored = await t.app.db
      .selectFrom("cas_tickets")
      .select("ticket_hash")
      .where("application_id", "=", application.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(Buffer.from(stored[0]?.ticket_hash ?? []).toString("utf8")).not.toContain(ticket.slice(3, 20));
  });
});
