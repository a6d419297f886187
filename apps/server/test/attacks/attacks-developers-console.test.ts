import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addMember, addStudent, registerApplication } from "../support/developers.ts";
import { openAgreeing } from "../support/ticket-consent.ts";

/** Attacks on the developers' console actions (issue 60): secrets, device sign-in, signing out, deleting, addresses. */
describe.each(aboveModelDatabases)("attacks on the developers' console (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const redeem = (appId: string, appSecret: string, ticketId: string) =>
    t.app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });
  const ticketFor = async (cookie: string, appId: string) =>
    new URL((await openAgreeing(t.app, cookie, { appId })).location).searchParams.get("ticketId") ?? "";
  const actions = [
    ["/secret", { overlapHours: 168 }],
    ["/secret/end-previous", {}],
    ["/device-flow", { enabled: true }],
    ["/sign-everyone-out", {}],
    ["/delete", { confirm: "Бібліотека" }],
  ] as const;

  it("refuses every console action from another site's page, and to a tester or a stranger", async () => {
    const owner = await addStudent(t.app, "owner");
    const tester = await addStudent(t.app, "tester");
    const stranger = await addStudent(t.app, "stranger");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бібліотека",
      titleEn: "Library",
      callbackUrls: ["https://library.example.edu/callback"],
    });
    await addMember(t.app, application.id, "tester", owner, tester);
    const url = `/api/developers/applications/${application.id}`;
    for (const [tail, body] of actions) {
      const crossSite = await t.app.inject({
        method: "POST",
        url: `${url}${tail}`,
        payload: body,
        headers: { cookie: owner.cookie, origin: "https://evil.example" },
      });
      expect(crossSite.statusCode, tail).toBe(403);
      for (const person of [tester, stranger]) {
        const answer = await post(`${url}${tail}`, body, person.cookie);
        expect(answer.json(), tail).toMatchObject({ code: "developer.application_not_found" });
      }
    }
    // Nothing happened: the application is there, with its one secret and no device sign-in.
    const detail = (await t.app.inject({ url, headers: { cookie: owner.cookie } })).json();
    expect(detail).toMatchObject({ deviceFlow: false, secrets: [{ which: "current" }] });
  });

  it("gives a public client no secret that works: an empty or guessed one redeems no ticket", async () => {
    const owner = await addStudent(t.app, "spa");
    const { application, secret } = await registerApplication(t.app, owner.cookie, {
      title: "Черга",
      titleEn: "Queue",
      clientType: "public",
      redirectUris: ["http://localhost:5173/callback"],
    });
    expect(secret).toBe("");
    // Even with a callback written into the table by hand (the page refuses one), no secret it could send works.
    await t.app.db
      .updateTable("applications")
      .set({ callback_url: "https://queue.example.edu/callback" })
      .where("id", "=", application.id)
      .execute();
    const ticket = await ticketFor(owner.cookie, application.id);
    expect(ticket).not.toBe("");
    for (const guess of ["", "undefined", "null"]) {
      expect((await redeem(application.id, guess, ticket)).statusCode).toBe(401);
    }
  });

  it("ends the replaced secret at once when asked, and never keeps more than two", async () => {
    const owner = await addStudent(t.app, "rotator");
    const { application, secret: first } = await registerApplication(t.app, owner.cookie, {
      title: "Архів",
      titleEn: "Archive",
      callbackUrls: ["https://archive.example.edu/callback"],
    });
    const url = `/api/developers/applications/${application.id}`;
    const second = (await post(`${url}/secret`, { overlapHours: 168 }, owner.cookie)).json().secret as string;
    const third = (await post(`${url}/secret`, { overlapHours: 168 }, owner.cookie)).json().secret as string;
    // The first secret ended when the second was replaced: only the last two work.
    expect((await redeem(application.id, first, await ticketFor(owner.cookie, application.id))).statusCode).toBe(401);
    expect((await redeem(application.id, second, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    expect((await redeem(application.id, third, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    await post(`${url}/secret/end-previous`, {}, owner.cookie);
    expect((await redeem(application.id, second, await ticketFor(owner.cookie, application.id))).statusCode).toBe(401);
    // A negative or fractional overlap is refused, not rounded into a longer one.
    for (const overlapHours of [-1, 1.5, 169, "24"]) {
      expect((await post(`${url}/secret`, { overlapHours }, owner.cookie)).statusCode).toBe(400);
    }
  });

  it.each([
    ["a name under localhost", "http://localhost.evil.example/cb"],
    ["a name that resolves to loopback", "http://127.0.0.1.nip.io/cb"],
    ["a loopback name with a user", "http://evil@localhost/cb"],
    ["a private address", "http://10.0.0.1/cb"],
    ["https on an IP literal", "https://127.0.0.1/cb"],
  ])("refuses %s as a development address", async (_, uri) => {
    const { cookie } = await addStudent(t.app, "dev");
    const answer = await post(
      "/api/developers/applications",
      { title: "Тест", titleEn: "Test", redirectUris: [uri] },
      cookie,
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toMatch(/^developer\.(invalid|insecure)_uri$/);
  });

  it("keeps what an unregistered address note holds to the address sent, cut at 2048 characters", async () => {
    const owner = await addStudent(t.app, "noted");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Нотатки",
      titleEn: "Notes",
      callbackUrls: ["https://notes.example.edu/callback"],
    });
    const tried = `https://evil.example/${"x".repeat(900)}`;
    const link = new URLSearchParams({ appId: application.id, redirectUri: tried });
    await t.app.inject({ url: `/api/app-redirect?${link}`, headers: { cookie: owner.cookie } });
    const health = (
      await t.app.inject({
        url: `/api/developers/applications/${application.id}/health`,
        headers: { cookie: owner.cookie },
      })
    ).json();
    expect(health.failures[0]).toMatchObject({ reason: "redirect_uri_not_registered", address: tried });
  });
});
